#pragma once

#include "config/jsonnode.h"

#include <QByteArray>
#include <QCoreApplication>
#include <QString>

#include <optional>

namespace switchyard {

class ConfigReport;
class FieldReader;

// Keys and tokens a config names: read from a file or an environment variable, and checked to
// fit an HTTP header. No message ever quotes a secret.
class SecretReader final
{
    // The config's messages share one translation context, whichever class words them.
    Q_DECLARE_TR_FUNCTIONS(ConfigLoader)

public:
    SecretReader(ConfigReport &report, FieldReader &fields) : m_report(report), m_fields(fields) {}

    // The contents of the file a field names; nullopt after reporting why it cannot be read.
    std::optional<QByteArray> readFile(const JsonNode &node, const QString &path);
    // The value of the environment variable a field names; nullopt after reporting it unset.
    std::optional<QByteArray> readEnv(const JsonNode &node, const QString &path);
    // Printable ASCII without spaces; false after reporting that the secret, named by where
    // ("this key", "line 3 of the file"), is not.
    bool check(const QString &secret, int line, const QString &path, const QString &where);

private:
    ConfigReport &m_report;
    FieldReader &m_fields;
};

} // namespace switchyard
