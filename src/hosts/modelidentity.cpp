#include "hosts/modelidentity.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QStringList>

namespace switchyard {

using namespace Qt::StringLiterals;

namespace {

const char *const MetaFields[] = {"n_params", "n_embd", "n_vocab", "size"};

QString modelArgument(const QJsonObject &status)
{
    const QJsonArray args = status.value("args"_L1).toArray();
    for (qsizetype i = 0; i + 1 < args.size(); ++i) {
        const QString arg = args.at(i).toString();
        if (arg == "--model"_L1 || arg == "-m"_L1)
            return args.at(i + 1).toString();
    }
    // An unloaded preset model may show its preset only.
    for (const QString &line : status.value("preset"_L1).toString().split(u'\n')) {
        const qsizetype eq = line.indexOf(u'=');
        if (eq > 0 && line.left(eq).trimmed() == "model"_L1)
            return line.mid(eq + 1).trimmed();
    }
    return {};
}

QString describe(const QString &field, const QJsonValue &value)
{
    const QString text = value.isString() ? value.toString() : QString::number(value.toDouble(), 'g', 15);
    return field == "path"_L1 ? u"file "_s + text : field + u' ' + text;
}

} // namespace

namespace ModelIdentity {

QString of(const QJsonObject &entry)
{
    QJsonObject identity;
    const QString path = modelArgument(entry.value("status"_L1).toObject());
    if (!path.isEmpty())
        identity.insert("path"_L1, path);
    const QJsonObject meta = entry.value("meta"_L1).toObject();
    for (const char *field : MetaFields) {
        const QJsonValue v = meta.value(QLatin1StringView(field));
        if (v.isDouble())
            identity.insert(QLatin1StringView(field), v);
    }
    return identity.isEmpty() ? QString() : QString::fromUtf8(QJsonDocument(identity).toJson(QJsonDocument::Compact));
}

QString mismatch(const QString &saved, const QString &now)
{
    const QJsonObject a = QJsonDocument::fromJson(saved.toUtf8()).object();
    const QJsonObject b = QJsonDocument::fromJson(now.toUtf8()).object();
    if (a.isEmpty())
        return {};   // nothing known when it was saved: nothing to hold against it
    QStringList differences;
    bool common = false;
    for (auto it = a.constBegin(); it != a.constEnd(); ++it) {
        if (!b.contains(it.key()))
            continue;
        common = true;
        if (b.value(it.key()) != it.value())
            differences << describe(it.key(), it.value()) + u", now "_s
                    + describe(it.key(), b.value(it.key())).section(u' ', 1, -1);
    }
    if (!differences.isEmpty())
        return differences.join(u"; "_s);
    return common ? QString() : u"nothing the engine says now tells it is the same model"_s;
}

} // namespace ModelIdentity

} // namespace switchyard
