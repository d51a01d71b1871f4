#pragma once

#include "catalog/hostmodels.h"

#include <QHash>
#include <QString>

namespace switchyard {

// What each engine served the last time it ran, kept in a JSON file in the data folder, so that
// after a restart the relay still knows which engine has which model (and can switch to it)
// before that engine has run again.
class EngineMemory
{
public:
    explicit EngineMemory(QString path);

    // host -> engine -> models. Missing or unreadable file: empty (the relay learns again).
    QHash<QString, QHash<QString, QList<ModelEntry>>> load() const;
    // Written atomically (QSaveFile): a crash never leaves half a file.
    bool save(const QHash<QString, QHash<QString, QList<ModelEntry>>> &models) const;

private:
    QString m_path;
};

} // namespace switchyard
