#include "export/relaymodel.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

using namespace Qt::StringLiterals;

namespace switchyard {

namespace {

int positive(const QJsonValue &value)
{
    const double d = value.toDouble(0);
    return d >= 1 && d <= 1e9 ? int(d) : 0;
}

int contextFromArgs(const QJsonArray &args)
{
    for (qsizetype i = 0; i + 1 < args.size(); ++i) {
        const QString a = args.at(i).toString();
        if (a == "--ctx-size"_L1 || a == "-c"_L1) {
            bool ok = false;
            const int n = args.at(i + 1).toString().toInt(&ok);
            if (ok && n > 0)
                return n;
        }
    }
    return 0;
}

int contextFromPreset(const QString &preset)
{
    static const QRegularExpression line(u"^\\s*(?:ctx-size|c)\\s*=\\s*(\\d+)\\s*$"_s,
                                         QRegularExpression::MultilineOption);
    const QRegularExpressionMatch m = line.match(preset);
    return m.hasMatch() ? m.captured(1).toInt() : 0;
}

} // namespace

bool RelayModel::parseList(const QByteArray &json, QList<RelayModel> *models, QString *error)
{
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &parseError);
    if (parseError.error != QJsonParseError::NoError || !doc.isObject()
        || !doc.object().value("data"_L1).isArray()) {
        *error = QCoreApplication::translate("export", "the model list is not a JSON object with a \"data\" array");
        return false;
    }
    models->clear();
    const QJsonArray data = doc.object().value("data"_L1).toArray();
    for (const QJsonValue &item : data) {
        const QJsonObject o = item.toObject();
        RelayModel m;
        m.alias = o.value("id"_L1).toString();
        if (m.alias.isEmpty())
            continue;
        const QJsonObject proxy = o.value("proxy"_L1).toObject();
        m.host = proxy.value("host"_L1).toString();
        m.key = proxy.value("key"_L1).toString();
        const QJsonObject status = o.value("status"_L1).toObject();
        m.loaded = status.value("value"_L1).toString() == "loaded"_L1;
        m.contextSize = positive(o.value("meta"_L1).toObject().value("n_ctx"_L1));
        if (m.contextSize == 0)   // the relay remembers it for a model not loaded now
            m.contextSize = positive(proxy.value("n_ctx"_L1));
        if (m.contextSize == 0)
            m.contextSize = contextFromArgs(status.value("args"_L1).toArray());
        if (m.contextSize == 0)
            m.contextSize = contextFromPreset(status.value("preset"_L1).toString());
        models->append(m);
    }
    return true;
}

QStringList RelayModel::aliases(const QList<RelayModel> &models)
{
    QStringList out;
    for (const RelayModel &m : models)
        out.append(m.alias);
    return out;
}

QList<RelayModel> RelayModel::select(const QList<RelayModel> &models, const QStringList &names, QStringList *unknown)
{
    QList<RelayModel> out;
    for (const QString &name : names) {
        if (const RelayModel *m = find(models, name)) {
            if (!find(out, name))
                out.append(*m);
        } else {
            unknown->append(name);
        }
    }
    return out;
}

const RelayModel *RelayModel::find(const QList<RelayModel> &models, const QString &alias)
{
    for (const RelayModel &m : models) {
        if (m.alias == alias)
            return &m;
    }
    return nullptr;
}

QString RelayModel::defaultAlias(const QList<RelayModel> &models)
{
    for (const RelayModel &m : models) {
        if (m.loaded)
            return m.alias;
    }
    return models.isEmpty() ? QString() : models.first().alias;
}

} // namespace switchyard
