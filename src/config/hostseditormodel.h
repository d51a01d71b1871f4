#pragma once

#include "config/config.h"
#include "config/configwriter.h"
#include "config/jsonnode.h"

#include <QByteArray>
#include <QCoreApplication>
#include <QString>
#include <QStringList>

namespace switchyard {

// The hosts editor's data (Settings → Hosts): the config file as a tree, its hosts and their
// engines added, renamed, removed and their fields set, everything else in the file (other
// fields, order, "//" comments) kept as it is. It validates nothing itself: check() runs the
// config's own readers (as check-config does) over what would be written, and their errors name
// the fields by path (fieldPath()).
class HostsEditorModel final
{
    // The config's messages share one translation context, whichever class words them.
    Q_DECLARE_TR_FUNCTIONS(ConfigLoader)

public:
    // The fields the editor shows: every one the config readers know. Host: driver, api_key,
    // agent, token, scheduling, prompt_cache, the wake and idle fields. Engine: url, models, argv
    // (lists), start, stop, their timeouts, idle_stop_after_s. Others are kept and listed by
    // hiddenFields(). A key may name a member of a member: "wake.mac".
    static const QStringList &hostKeys();
    static const QStringList &engineKeys();
    static bool isListKey(const QString &key)
    {
        return key == QLatin1String("models") || key == QLatin1String("argv") || key == QLatin1String("sleep_command");
    }

    // existing: the file's bytes (empty: there is none). False, with *error, when it is not a
    // JSON object (it is then not edited at all).
    bool load(const QByteArray &existing, QString *error);
    QByteArray original() const { return m_original; }

    QStringList hosts() const;
    QStringList engines(const QString &host) const;

    // engine empty: a field of the host itself. A missing field reads as empty.
    QString text(const QString &host, const QString &engine, const QString &key) const;
    QStringList list(const QString &host, const QString &engine, const QString &key) const;
    // An empty value removes the field (the readers' defaults apply). Seconds and ports
    // ("..._s", "wake.port") are written as numbers when they read as one.
    void setText(const QString &host, const QString &engine, const QString &key, const QString &value);
    void setList(const QString &host, const QString &engine, const QString &key, const QStringList &value);

    // A new host "host", "host2", ... with driver "static" and one engine "main" without a URL yet.
    QString addHost();
    // A host checked by "Add a GPU box" (driver "static", one engine "main" at its URL), as the
    // first run writes it. False when its name is taken.
    bool addHost(const ConfigWriter::NewHost &host);
    // Each host's engine URLs as they stand, for refusing a box that is already here.
    QList<std::pair<QString, QStringList>> engineUrls() const;
    // A new engine "engine", "engine2", ... on host ("main" when it has none), without a URL yet.
    QString addEngine(const QString &host);
    void removeHost(const QString &host);
    void removeEngine(const QString &host, const QString &engine);
    // False when to is taken (the names identify what is edited; the readers judge the rest).
    bool renameHost(const QString &from, const QString &to);
    bool renameEngine(const QString &host, const QString &from, const QString &to);

    // How the readers' errors name these: "hosts.gpu", "hosts.gpu.engines.main.url".
    static QString fieldPath(const QString &host, const QString &engine = {}, const QString &key = {});

    // The readers' verdict on what would be written (fileName labels the errors).
    ConfigResult check(const QString &fileName) const;
    bool isModified() const;
    // What writing means for the file as loaded: text, layout changed, comments kept.
    ConfigWriter::Plan plan() const;
    // Field by field, what the edit changes (see ConfigDiff).
    QStringList changes() const;
    // Fields of hosts and engines this editor does not show; they are written back unchanged.
    QStringList hiddenFields() const;

private:
    JsonNode *hostsNode();
    const JsonNode *hostsNode() const;
    JsonNode *object(const QString &host, const QString &engine);
    const JsonNode *object(const QString &host, const QString &engine) const;

    QByteArray m_original;
    JsonNode m_before;
    JsonNode m_root;
};

} // namespace switchyard
