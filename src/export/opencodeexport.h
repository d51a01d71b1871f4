#pragma once

#include "export/relaymodel.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>

namespace switchyard {

// Builds opencode's config for the relay: one "@ai-sdk/openai-compatible" provider with every
// alias. A model's key in the config never contains a SamplerWords word (opencode picks
// samplers by name); the alias itself goes in "id", which is what opencode sends.
class OpencodeExport
{
public:
    struct Options
    {
        QString baseUrl;                          // the relay, without /v1
        QString provider = QStringLiteral("switchyard");
        QString model;                            // default model alias; empty = RelayModel::defaultAlias
    };

    struct Entry
    {
        QString key;     // the config key, free of sampler words and unique
        RelayModel model;
    };

    OpencodeExport(Options options, const QList<RelayModel> &models);

    // False with *error when there is no model or the default model is not among them.
    bool isValid(QString *error) const;

    const QList<Entry> &entries() const { return m_entries; }
    QString keyFor(const QString &alias) const;
    // "provider/key" as opencode's "model" and -m want it.
    QString modelRef(const QString &alias) const;

    QJsonObject provider() const;
    // A whole opencode.json.
    QJsonObject config() const;
    // The user's opencode.json with our provider added or replaced, "model"/"small_model" set
    // only where absent, and everything else (order included) kept. fileName is for errors.
    bool merge(const QByteArray &existing, const QString &fileName, QByteArray *out, QString *error) const;

    // What opencode is told a model may write: a quarter of the context, at most 32000.
    static int outputLimit(int contextSize);
    // Keys for aliases in order: sampler words replaced, made unique with -2, -3...
    static QStringList keysFor(const QStringList &aliases);

private:
    QString defaultAlias() const;

    Options m_options;
    QList<Entry> m_entries;
};

} // namespace switchyard
