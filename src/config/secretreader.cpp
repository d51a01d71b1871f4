#include "config/secretreader.h"

#include "config/configreport.h"
#include "config/fieldreader.h"

#include <QFile>
#include <QFileInfo>

namespace switchyard {

namespace {

constexpr qint64 MaxSecretFileBytes = 1024 * 1024;

} // namespace

std::optional<QByteArray> SecretReader::readFile(const JsonNode &node, const QString &path)
{
    const std::optional<QString> file = m_fields.absolutePath(node, path);
    if (!file)
        return std::nullopt;
    // A regular file of sane size: not a FIFO that blocks check-config, nor /dev/zero.
    const QFileInfo info(*file);
    if (info.exists() && (!info.isFile() || info.size() > MaxSecretFileBytes)) {
        m_report.error(node.line, path, tr("\"%1\" is not a regular file of at most 1 MiB").arg(*file));
        return std::nullopt;
    }
    QFile f(*file);
    if (!f.open(QIODevice::ReadOnly)) {
        m_report.error(node.line, path, tr("cannot read \"%1\": %2").arg(*file, f.errorString()));
        return std::nullopt;
    }
    return f.readAll();
}

std::optional<QByteArray> SecretReader::readEnv(const JsonNode &node, const QString &path)
{
    if (node.string.isEmpty() || node.string.contains(u'=')) {
        m_report.error(node.line, path,
                       tr("expected the name of an environment variable, got \"%1\"").arg(node.string));
        return std::nullopt;
    }
    const QByteArray value = qgetenv(node.string.toLocal8Bit().constData());
    if (value.trimmed().isEmpty()) {
        m_report.error(node.line, path, tr("the environment variable %1 is not set or empty").arg(node.string));
        return std::nullopt;
    }
    return value;
}

bool SecretReader::check(const QString &secret, int line, const QString &path, const QString &where)
{
    // A key or token goes into an HTTP header.
    for (const QChar c : secret) {
        if (c.unicode() <= 0x20 || c.unicode() >= 0x7f) {
            m_report.error(line, path, tr("%1: a key must be printable ASCII without spaces").arg(where));
            return false;
        }
    }
    return true;
}

} // namespace switchyard
