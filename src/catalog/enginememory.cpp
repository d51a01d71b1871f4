#include "catalog/enginememory.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>

namespace switchyard {

using namespace Qt::StringLiterals;

EngineMemory::EngineMemory(QString path)
    : m_path(std::move(path))
{
}

QHash<QString, QHash<QString, QList<ModelEntry>>> EngineMemory::load() const
{
    QHash<QString, QHash<QString, QList<ModelEntry>>> out;
    QFile file(m_path);
    if (!file.open(QIODevice::ReadOnly))
        return out;
    const QJsonObject hosts = QJsonDocument::fromJson(file.readAll()).object();
    for (auto h = hosts.begin(); h != hosts.end(); ++h) {
        const QJsonObject engines = h.value().toObject();
        for (auto e = engines.begin(); e != engines.end(); ++e) {
            QList<ModelEntry> models;
            for (const QJsonValue &v : e.value().toArray()) {
                const QJsonObject raw = v.toObject();
                const QString key = raw.value("id"_L1).toString();
                if (!key.isEmpty())
                    models.append({key, u"unloaded"_s, raw});
            }
            out[h.key()][e.key()] = models;
        }
    }
    return out;
}

bool EngineMemory::save(const QHash<QString, QHash<QString, QList<ModelEntry>>> &models) const
{
    QJsonObject hosts;
    for (auto h = models.begin(); h != models.end(); ++h) {
        QJsonObject engines;
        for (auto e = h->begin(); e != h->end(); ++e) {
            QJsonArray list;
            for (const ModelEntry &m : e.value()) {
                QJsonObject raw = m.raw;
                raw.remove("status"_L1);   // only what it serves, not its state then
                list.append(raw);
            }
            engines.insert(e.key(), list);
        }
        hosts.insert(h.key(), engines);
    }
    QSaveFile file(m_path);
    if (!file.open(QIODevice::WriteOnly))
        return false;
    file.write(QJsonDocument(hosts).toJson(QJsonDocument::Compact));
    return file.commit();
}

} // namespace switchyard
