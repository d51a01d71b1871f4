#include "catalog/hostmodels.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>

namespace switchyard {

using namespace Qt::StringLiterals;

std::optional<qint64> ModelEntry::contextSize() const
{
    const QJsonValue n = raw.value("meta"_L1).toObject().value("n_ctx"_L1);
    if (n.isDouble() && n.toDouble() > 0)
        return qint64(n.toDouble());
    // A router's model that is not loaded has no meta: its arguments, or its preset, say the
    // context it loads with.
    const QJsonObject status = raw.value("status"_L1).toObject();
    QStringList args;
    for (const QJsonValue &a : status.value("args"_L1).toArray())
        args.append(a.toString());
    if (const std::optional<qint64> size = contextSizeInArgs(args))
        return size;
    static const QRegularExpression presetLine(u"^\\s*(?:ctx-size|c)\\s*=\\s*(\\d+)\\s*$"_s,
                                               QRegularExpression::MultilineOption);
    const QRegularExpressionMatch m = presetLine.match(status.value("preset"_L1).toString());
    if (m.hasMatch() && m.captured(1).toLongLong() > 0)
        return m.captured(1).toLongLong();
    return std::nullopt;
}

std::optional<qint64> contextSizeInArgs(const QStringList &args)
{
    for (qsizetype i = 0; i + 1 < args.size(); ++i) {
        const QString &a = args.at(i);
        if (a == "-c"_L1 || a == "--ctx-size"_L1) {
            bool ok = false;
            const qint64 size = args.at(i + 1).toLongLong(&ok);
            if (ok && size > 0)
                return size;
        }
    }
    return std::nullopt;
}

std::optional<QList<ModelEntry>> parseModelList(const QByteArray &json, QString *error)
{
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &parseError);
    if (!doc.isObject()) {
        *error = parseError.error != QJsonParseError::NoError ? parseError.errorString()
                                                              : u"model list is not a JSON object"_s;
        return std::nullopt;
    }
    const QJsonValue data = doc.object().value("data"_L1);
    if (!data.isArray()) {
        *error = u"model list has no \"data\" array"_s;
        return std::nullopt;
    }
    QList<ModelEntry> models;
    for (const QJsonValue &v : data.toArray()) {
        const QJsonObject o = v.toObject();
        ModelEntry m;
        m.key = o.value("id"_L1).toString();
        if (m.key.isEmpty())
            continue;
        const QJsonValue status = o.value("status"_L1);
        if (status.isObject())
            m.status = status.toObject().value("value"_L1).toString();
        else if (status.isString())
            m.status = status.toString();
        else
            m.status = u"loaded"_s;   // a single-model server lists only what it serves
        m.raw = o;
        models.append(std::move(m));
    }
    return models;
}

} // namespace switchyard
