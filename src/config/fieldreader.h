#pragma once

#include "config/config.h"
#include "config/jsonnode.h"

#include <QCoreApplication>
#include <QHostAddress>
#include <QString>
#include <QStringList>
#include <QUrl>

#include <chrono>
#include <optional>
#include <vector>

namespace switchyard {

class ConfigReport;

// The checks every kind of config file makes of its fields: types, known names, ranges, durations,
// URLs, paths and argv. Each reports what is wrong to the report, with the field's line and path,
// and leaves the target as it was.
class FieldReader final
{
    // The config's messages share one translation context, whichever class words them.
    Q_DECLARE_TR_FUNCTIONS(ConfigLoader)

public:
    // The longest duration readSeconds takes: a day; also keeps the millisecond conversion in range.
    static constexpr double MaxSeconds = 86400;

    explicit FieldReader(ConfigReport &report) : m_report(report) {}

    // The whole document: an object (false after reporting what it is instead), without duplicate
    // keys or unknown fields (see checkFields).
    bool checkDocument(const JsonNode &root, const QStringList &known, const QStringList &misplaced,
                       const QString &misplacedHint);
    // The optional top-level object called key, its unknown fields reported; nullptr when absent
    // or not an object.
    const JsonNode *section(const JsonNode &root, const QString &key, const QStringList &known);
    // Duplicate keys anywhere: QJsonDocument would silently keep the last one.
    void checkDuplicates(const JsonNode &node, const QString &path);
    // Unknown fields are errors: a typo must not quietly fall back to a default. A field that
    // belongs elsewhere (in misplaced) gets misplacedHint, if no known field is spelt like it.
    void checkFields(const JsonNode &object, const QString &path, const QStringList &known,
                     const QStringList &misplaced = {}, const QString &misplacedHint = {});
    // The members that name something (hosts, engines, aliases): no comments, and only the first
    // of a repeated key (checkDuplicates reports the others).
    static std::vector<const JsonNode *> namedMembers(const JsonNode &object);

    // The member key of object if it exists and has the wanted type; reports what is wrong.
    const JsonNode *field(const JsonNode &object, const QString &objectPath, const QString &key,
                          JsonNode::Type type, bool required = false);
    void typeError(const JsonNode &node, const QString &path, JsonNode::Type wanted);

    // A required string member holding an EngineUrl.
    std::optional<QUrl> readUrl(const JsonNode &object, const QString &objectPath, const QString &key);
    // Every item must be a string; nullopt after reporting each one that is not.
    std::optional<QStringList> readStrings(const JsonNode &array, const QString &path);
    // A number of seconds, more than 0 and at most a day.
    void readSeconds(const JsonNode &object, const QString &objectPath, const QString &key,
                     std::chrono::milliseconds &target);
    // "/abs/path" or "~/path", as a clean absolute path; nullopt after reporting what is wrong.
    std::optional<QString> absolutePath(const JsonNode &node, const QString &path);
    // An optional member holding an absolutePath. Relative paths would depend on where it was started.
    void readAbsolutePath(const JsonNode &object, const QString &objectPath, const QString &key,
                          QString &target);
    // The program and its arguments: a non-empty list of strings, the first not blank.
    void readArgv(const JsonNode &object, const QString &objectPath, EngineConfig &engine,
                  bool required = true);
    // An optional token that, when given, must not be blank.
    void readToken(const JsonNode &object, const QString &objectPath, const QString &key, QString &target);
    // The document's "listen" (see ConfigLoader::parseListen), or nullptr when it has none. One that
    // does not parse is reported and leaves address and port as they were.
    const JsonNode *readListen(const JsonNode &root, QHostAddress &address, quint16 &port);

private:
    QString typeName(JsonNode::Type type) const;
    QString describe(const JsonNode &node) const;

    ConfigReport &m_report;
};

} // namespace switchyard
