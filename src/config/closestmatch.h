#pragma once

#include <QString>
#include <QStringList>

namespace switchyard {

// The candidate a misspelt word was probably meant to be, for "did you mean ...?": the nearest
// one, ignoring case, within max(1, its length / 3) edits (a swap of two neighbours is one edit), the
// first of equally near ones; empty when none is near enough.
QString closestMatch(const QString &word, const QStringList &candidates);

} // namespace switchyard
