#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QStringList>
#include <QString>

#include <optional>

namespace switchyard {

// One model as an engine lists it in its /models answer.
struct ModelEntry
{
    QString key;        // the model's name on its engine
    QString status;     // unloaded | loading | loaded | sleeping | ...
    QJsonObject raw;    // the engine's own entry, passed on to clients

    // meta.n_ctx when the engine says; for a router's unloaded model, its --ctx-size argument or
    // its preset's ctx-size line.
    std::optional<qint64> contextSize() const;
};

// The context size a command line starts llama-server with: its -c or --ctx-size.
std::optional<qint64> contextSizeInArgs(const QStringList &args);

// Reads an engine's GET /models (router or single-model format). Returns nullopt with *error
// set when the answer is not a model list.
std::optional<QList<ModelEntry>> parseModelList(const QByteArray &json, QString *error);

} // namespace switchyard
