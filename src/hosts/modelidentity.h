#pragma once

#include <QJsonObject>
#include <QString>

namespace switchyard {

// Which weights an engine serves under a model name, read from its GET /models entry: the
// router's --model argument (or its preset's "model =" line) and, while the model is loaded,
// its meta (n_params, n_embd, n_vocab, size). A saved slot of one model restored into another
// would be refused at best (other shapes) and give garbage at worst (a fine-tune of the same
// shape), so the prompt-cache keeper compares the two before every restore.
namespace ModelIdentity {

// Compact JSON of what `entry` tells; empty when it tells nothing.
QString of(const QJsonObject &entry);
// Why `saved` and `now` are not the same model ("file /a.gguf, now /b.gguf"), or empty when
// they agree on every field both know. An empty `saved` agrees with anything; otherwise two
// identities with no field in common do not agree.
QString mismatch(const QString &saved, const QString &now);

} // namespace ModelIdentity

} // namespace switchyard
