#include "config/hostconfigreader.h"

#include "config/closestmatch.h"
#include "config/confignames.h"
#include "config/configreport.h"
#include "config/fieldpath.h"
#include "config/fieldreader.h"
#include "config/macaddress.h"
#include "config/secretreader.h"

#include <QDir>
#include <QHash>
#include <QStandardPaths>

#include <algorithm>
#include <cmath>

namespace switchyard {

using namespace Qt::StringLiterals;
using Type = JsonNode::Type;

namespace {

const QStringList HostFields = {u"driver"_s, u"agent"_s, u"token"_s, u"api_key"_s, u"engines"_s, u"scheduling"_s,
                                 u"prompt_cache"_s, u"wake"_s, u"idle_stop_after_s"_s, u"sleep_command"_s};
const QStringList WakeFields = {u"mac"_s, u"broadcast"_s, u"port"_s, u"timeout_s"_s};
const QStringList SchedulingFields = {u"policy"_s, u"dwell_s"_s, u"max_wait_s"_s, u"side_call_max_wait_s"_s};
const QStringList PromptCacheFields = {u"dir"_s, u"max_size_mb"_s, u"save_budget_s"_s};
const QString SlotSavePath = u"--slot-save-path"_s;
const QStringList EngineFields = {u"url"_s, u"models"_s, u"argv"_s, u"start"_s, u"stop"_s,
                                  u"start_timeout_s"_s, u"stop_timeout_s"_s, u"idle_stop_after_s"_s};
const QStringList Drivers = {u"static"_s, u"local"_s, u"agent"_s, u"command"_s};

} // namespace

HostConfigReader::HostConfigReader(ConfigReport &report, FieldReader &fields, SecretReader &secrets)
    : m_report(report), m_fields(fields), m_secrets(secrets)
{
}

const QStringList &HostConfigReader::hostFields()
{
    return HostFields;
}

void HostConfigReader::read(const JsonNode &root, Config &config)
{
    const JsonNode *hosts = m_fields.field(root, QString(), u"hosts"_s, Type::Object, true);
    if (!hosts)
        return;
    const std::vector<const JsonNode *> named = FieldReader::namedMembers(*hosts);
    for (const JsonNode *node : named) {
        const QString path = memberPath(u"hosts"_s, node->key);
        if (!ConfigNames::isValidHostName(node->key))
            m_report.error(node->line, path, ConfigNames::invalidHostName(node->key));
        readHost(*node, path, config);
    }
    if (named.empty())
        m_report.error(hosts->line, u"hosts"_s, tr("no hosts configured; add at least one"));
}

void HostConfigReader::readHost(const JsonNode &node, const QString &path, Config &config)
{
    if (!node.isObject()) {
        m_fields.typeError(node, path, Type::Object);
        return;
    }
    m_fields.checkFields(node, path, HostFields, EngineFields,
                         tr("engine fields go inside \"engines\": {\"NAME\": {...}}"));

    HostConfig host;
    host.name = node.key;
    bool driverKnown = true;
    if (const JsonNode *driver = node.member(u"driver"_s)) {
        if (!driver->isString()) {
            m_fields.typeError(*driver, memberPath(path, u"driver"_s), Type::String);
            driverKnown = false;
        } else if (!Drivers.contains(driver->string)) {
            const QString guess = closestMatch(driver->string, Drivers);
            m_report.error(driver->line, memberPath(path, u"driver"_s),
                           guess.isEmpty()
                               ? tr("unknown driver \"%1\" (expected static, local, agent or command)").arg(driver->string)
                               : tr("unknown driver \"%1\" (did you mean \"%2\"?)").arg(driver->string, guess));
            driverKnown = false;
        } else {
            host.driver = driver->string;
        }
    }

    // A field of another driver is refused, unless the driver itself is in error.
    if (driverKnown && host.driver == u"agent") {
        if (std::optional<QUrl> url = m_fields.readUrl(node, path, u"agent"_s))
            host.agent = *url;
        m_fields.readToken(node, path, u"token"_s, host.token);
    } else if (driverKnown) {
        rejectField(node, path, u"agent"_s, tr("only used with driver \"agent\""));
        rejectField(node, path, u"token"_s, tr("only used with driver \"agent\""));
    }
    readApiKey(node, path, host);
    if (driverKnown && host.driver == u"static")
        rejectField(node, path, u"scheduling"_s, tr("not used with driver \"static\": its engines are never switched"));
    else
        readScheduling(m_report, m_fields, node, path, host.scheduling);

    if (const JsonNode *engines = m_fields.field(node, path, u"engines"_s, Type::Object, true))
        readEngines(*engines, memberPath(path, u"engines"_s), driverKnown ? host.driver : QString(), host);
    if (driverKnown && host.driver == u"static")
        rejectField(node, path, u"prompt_cache"_s, tr("not used with driver \"static\": its engines are never stopped"));
    else
        readPromptCache(node, path, host);
    readPower(node, path, driverKnown ? host.driver : QString(), host);
    config.hosts.append(host);
}

void HostConfigReader::readApiKey(const JsonNode &node, const QString &path, HostConfig &host)
{
    const JsonNode *key = m_fields.field(node, path, u"api_key"_s, Type::String);
    if (!key)
        return;
    const QString keyPath = memberPath(path, u"api_key"_s);
    if (key->string.isEmpty())
        m_report.error(key->line, keyPath, tr("must not be empty (leave the field out for no key)"));
    else if (m_secrets.check(key->string, key->line, keyPath, tr("the key")))
        host.apiKey = key->string;
}

void HostConfigReader::readScheduling(ConfigReport &report, FieldReader &fields, const JsonNode &node, const QString &path,
                                      SchedulingConfig &scheduling)
{
    const JsonNode *section = fields.field(node, path, u"scheduling"_s, Type::Object);
    if (!section)
        return;
    const QString sectionPath = memberPath(path, u"scheduling"_s);
    fields.checkFields(*section, sectionPath, SchedulingFields);
    if (const JsonNode *policy = fields.field(*section, sectionPath, u"policy"_s, Type::String)) {
        if (policy->string == u"batch") {
            scheduling.policy = SchedulingConfig::Policy::Batch;
        } else if (policy->string == u"arrival") {
            scheduling.policy = SchedulingConfig::Policy::Arrival;
        } else {
            const QString guess = closestMatch(policy->string, {u"batch"_s, u"arrival"_s});
            report.error(policy->line, memberPath(sectionPath, u"policy"_s),
                           guess.isEmpty()
                               ? tr("unknown policy \"%1\" (expected batch or arrival)").arg(policy->string)
                               : tr("unknown policy \"%1\" (did you mean \"%2\"?)").arg(policy->string, guess));
        }
    }
    // No dwell at all is a choice: the host switches as soon as the running engine is idle.
    if (const JsonNode *dwell = fields.field(*section, sectionPath, u"dwell_s"_s, Type::Number)) {
        if (!(dwell->number >= 0) || dwell->number > FieldReader::MaxSeconds)
            report.error(dwell->line, memberPath(sectionPath, u"dwell_s"_s),
                           tr("must be 0 or more and at most %1 (a day)").arg(FieldReader::MaxSeconds));
        else
            scheduling.dwell = std::chrono::milliseconds(std::llround(dwell->number * 1000));
    }
    fields.readSeconds(*section, sectionPath, u"max_wait_s"_s, scheduling.maxWait);
    fields.readSeconds(*section, sectionPath, u"side_call_max_wait_s"_s, scheduling.sideCallMaxWait);
    if (scheduling.policy == SchedulingConfig::Policy::Arrival) {
        for (const QString &key : {u"dwell_s"_s, u"max_wait_s"_s, u"side_call_max_wait_s"_s}) {
            if (const JsonNode *unused = section->member(key))
                report.warning(unused->line, memberPath(sectionPath, key), tr("not used with policy \"arrival\""));
        }
    }
}

QString HostConfigReader::defaultSlotFolder(const QString &host)
{
    return QDir(QStandardPaths::writableLocation(QStandardPaths::GenericCacheLocation))
        .filePath(u"switchyard/slots/"_s + host);
}

// A local host keeps prompt caches without a setting (issue 31): its engines save into one folder,
// the one an engine's argv names already, else a folder of the relay's own under its cache folder.
// Engines that name different folders leave it off, with a warning that says how to choose.
void HostConfigReader::defaultPromptCache(const JsonNode &node, const QString &path, HostConfig &host)
{
    QString named;
    for (const EngineConfig &engine : std::as_const(host.engines)) {
        const qsizetype at = engine.argv.indexOf(SlotSavePath);
        if (at < 0 || at + 1 >= engine.argv.size())
            continue;
        const QString folder = QDir::cleanPath(engine.argv.at(at + 1));
        if (named.isEmpty()) {
            named = folder;
        } else if (folder != named) {
            m_report.warning(node.line, memberPath(path, u"prompt_cache"_s),
                             tr("prompt caches are off: the engines save into different folders (%1, %2); "
                                "set prompt_cache.dir to one of them").arg(named, folder));
            return;
        }
    }
    host.promptCache.dir = named.isEmpty() ? defaultSlotFolder(host.name) : named;
    for (EngineConfig &engine : host.engines) {
        if (!engine.argv.contains(SlotSavePath))
            engine.argv << SlotSavePath << host.promptCache.dir;
    }
}

// The local driver's engines get "--slot-save-path DIR" added to their argv unless it is there
// already, in which case it must name the same folder. Without the field a local host keeps
// prompt caches in a folder of its own; "prompt_cache": false turns them off.
void HostConfigReader::readPromptCache(const JsonNode &node, const QString &path, HostConfig &host)
{
    const JsonNode *given = node.member(u"prompt_cache"_s);
    if (given && given->type == Type::Bool) {
        if (given->boolean && host.driver == u"local")
            defaultPromptCache(node, path, host);
        return;   // false: off
    }
    if (!given) {
        if (host.driver == u"local")
            defaultPromptCache(node, path, host);
        else if (host.driver == u"command")
            // Its start commands are the user's: the relay cannot add the folder to them.
            m_report.warning(node.line, memberPath(path, u"prompt_cache"_s),
                             tr("prompt caches are off: the relay cannot give engines started by commands a folder; "
                                "add %1 DIR to each start command and set prompt_cache.dir to DIR "
                                "(or \"prompt_cache\": false to say so)").arg(SlotSavePath));
        return;
    }
    const JsonNode *cache = m_fields.field(node, path, u"prompt_cache"_s, Type::Object);
    if (!cache)
        return;
    const QString cachePath = memberPath(path, u"prompt_cache"_s);
    m_fields.checkFields(*cache, cachePath, PromptCacheFields);
    PromptCacheConfig config;
    if (const JsonNode *dir = m_fields.field(*cache, cachePath, u"dir"_s, Type::String, true)) {
        if (const std::optional<QString> absolute = m_fields.absolutePath(*dir, memberPath(cachePath, u"dir"_s)))
            config.dir = *absolute;
    }
    if (const JsonNode *size = m_fields.field(*cache, cachePath, u"max_size_mb"_s, Type::Number)) {
        if (!(size->number >= 1) || size->number > 1e9)
            m_report.error(size->line, memberPath(cachePath, u"max_size_mb"_s), tr("must be between 1 and 1000000000"));
        else
            config.maxBytes = qint64(size->number * 1024 * 1024);
    }
    m_fields.readSeconds(*cache, cachePath, u"save_budget_s"_s, config.saveBudget);
    if (config.dir.isEmpty())
        return;
    if (host.driver == u"local") {
        const JsonNode *engines = node.member(u"engines"_s);
        for (EngineConfig &engine : host.engines) {
            const qsizetype at = engine.argv.indexOf(SlotSavePath);
            if (at < 0) {
                engine.argv << SlotSavePath << config.dir;
                continue;
            }
            const QString given = at + 1 < engine.argv.size() ? engine.argv.at(at + 1) : QString();
            if (QDir::cleanPath(given) != config.dir) {
                const JsonNode *engineNode = engines ? engines->member(engine.name) : nullptr;
                const JsonNode *argv = engineNode ? engineNode->member(u"argv"_s) : nullptr;
                m_report.error(argv ? argv->line : cache->line,
                               memberPath(memberPath(memberPath(path, u"engines"_s), engine.name), u"argv"_s),
                               tr("%1 \"%2\" is not prompt_cache.dir \"%3\" (leave it out: the relay adds it)")
                                   .arg(SlotSavePath, given, config.dir));
            }
        }
    }
    host.promptCache = config;
}

void HostConfigReader::readIdleAndSleep(const JsonNode &node, const QString &path, HostConfig &host)
{
    std::chrono::milliseconds idle{0};
    m_fields.readSeconds(node, path, u"idle_stop_after_s"_s, idle);
    if (idle.count() > 0)
        host.idleStopAfter = idle;
    const JsonNode *sleep = m_fields.field(node, path, u"sleep_command"_s, Type::Array);
    if (!sleep)
        return;
    const QString sleepPath = memberPath(path, u"sleep_command"_s);
    if (const std::optional<QStringList> argv = m_fields.readStrings(*sleep, sleepPath)) {
        if (argv->isEmpty() || argv->first().trimmed().isEmpty())
            m_report.error(sleep->line, sleepPath, tr("must not be empty: give the program and its arguments"));
        else
            host.sleepCommand = *argv;
    }
    const bool idleStops = host.idleStopAfter
        || std::any_of(host.engines.cbegin(), host.engines.cend(),
                       [](const EngineConfig &e) { return e.idleStopAfter.has_value(); });
    if (!host.sleepCommand.isEmpty() && !idleStops)
        m_report.warning(sleep->line, sleepPath, tr("never run: neither the host nor an engine has idle_stop_after_s"));
}

// An agent of protocol 2 decides a shared box's idle stop and sleep for every relay in front of
// it (issue 33): the relay's own setting is used only with an older agent.
void HostConfigReader::warnIfTheAgentDecides(const JsonNode &node, const QString &path, const QString &key)
{
    if (const JsonNode *field = node.member(key))
        m_report.warning(field->line, memberPath(path, key),
                         tr("decided by the box's agent, which sees every relay's requests: set it in the "
                            "agent's config (this relay uses it only with an agent of protocol 1)"));
}

// "wake", "idle_stop_after_s" and "sleep_command": a box that sleeps when idle and is woken by
// the next request (docs/HOSTS.md, "Wake and idle stop").
void HostConfigReader::readPower(const JsonNode &node, const QString &path, const QString &driver, HostConfig &host)
{
    if (driver == u"static") {
        rejectField(node, path, u"idle_stop_after_s"_s, tr("not used with driver \"static\": its engine is never stopped"));
        rejectField(node, path, u"sleep_command"_s, tr("not used with driver \"static\": its engine is never stopped"));
    } else {
        readIdleAndSleep(node, path, host);
        if (driver == u"agent") {
            for (const QString &key : {u"idle_stop_after_s"_s, u"sleep_command"_s})
                warnIfTheAgentDecides(node, path, key);
        }
    }
    const JsonNode *wake = m_fields.field(node, path, u"wake"_s, Type::Object);
    if (!wake)
        return;
    const QString wakePath = memberPath(path, u"wake"_s);
    if (driver == u"local") {
        m_report.error(wake->line, wakePath, tr("not used with driver \"local\": its engines run on this machine, "
                                                "which is awake"));
        return;
    }
    m_fields.checkFields(*wake, wakePath, WakeFields);
    WakeConfig config;
    bool ok = true;
    if (const JsonNode *mac = m_fields.field(*wake, wakePath, u"mac"_s, Type::String, true)) {
        if (const std::optional<QByteArray> bytes = parseMacAddress(mac->string)) {
            config.mac = *bytes;
        } else {
            m_report.error(mac->line, memberPath(wakePath, u"mac"_s),
                           tr("\"%1\" is not a MAC address (six pairs of hex digits, e.g. 3c:7c:3f:1e:22:0a)")
                               .arg(mac->string));
            ok = false;
        }
    } else {
        ok = false;
    }
    config.broadcast = QHostAddress(QHostAddress::Broadcast);
    if (const JsonNode *broadcast = m_fields.field(*wake, wakePath, u"broadcast"_s, Type::String)) {
        const QHostAddress address(broadcast->string);
        if (address.protocol() != QAbstractSocket::IPv4Protocol) {
            m_report.error(broadcast->line, memberPath(wakePath, u"broadcast"_s),
                           tr("\"%1\" is not an IPv4 address (the LAN's broadcast address, e.g. 192.168.1.255)")
                               .arg(broadcast->string));
            ok = false;
        } else {
            config.broadcast = address;
        }
    }
    if (const JsonNode *port = m_fields.field(*wake, wakePath, u"port"_s, Type::Number)) {
        if (!(port->number >= 1 && port->number <= 65535) || port->number != std::floor(port->number)) {
            m_report.error(port->line, memberPath(wakePath, u"port"_s), tr("must be a whole number from 1 to 65535"));
            ok = false;
        } else {
            config.port = quint16(port->number);
        }
    }
    m_fields.readSeconds(*wake, wakePath, u"timeout_s"_s, config.timeout);
    if (ok)
        host.wake = config;
}

void HostConfigReader::readEngines(const JsonNode &engines, const QString &enginesPath, const QString &driver,
                                   HostConfig &host)
{
    const std::vector<const JsonNode *> named = FieldReader::namedMembers(engines);
    QHash<QString, QString> modelOwner;   // model key -> first engine listing it
    for (const JsonNode *engineNode : named) {
        const QString enginePath = memberPath(enginesPath, engineNode->key);
        if (!ConfigNames::isValidEngineName(engineNode->key))
            m_report.error(engineNode->line, enginePath, ConfigNames::invalidEngineName(engineNode->key));
        EngineConfig engine = readEngine(*engineNode, enginePath, driver);
        // A model served by two engines of one host: the first engine wins, like the default.
        if (const JsonNode *models = engineNode->member(u"models"_s); models && models->isArray()) {
            for (std::size_t i = 0; i < models->children.size(); ++i) {
                const JsonNode &model = models->children[i];
                if (!model.isString() || model.string.isEmpty())
                    continue;
                const QString owner = modelOwner.value(model.string);
                if (owner.isEmpty()) {
                    modelOwner.insert(model.string, engine.name);
                } else if (owner != engine.name) {
                    m_report.warning(model.line, itemPath(memberPath(enginePath, u"models"_s), i),
                                     tr("model \"%1\" is also listed by engine %2, which comes first and serves it")
                                         .arg(model.string, owner));
                }
            }
        }
        host.engines.append(engine);
    }
    if (named.empty())
        m_report.error(engines.line, enginesPath, tr("no engines configured; a host needs at least one"));
}

EngineConfig HostConfigReader::readEngine(const JsonNode &node, const QString &path, const QString &driver)
{
    EngineConfig engine;
    engine.name = node.key;
    if (!node.isObject()) {
        m_fields.typeError(node, path, Type::Object);
        return engine;
    }
    m_fields.checkFields(node, path, EngineFields);
    if (std::optional<QUrl> url = m_fields.readUrl(node, path, u"url"_s))
        engine.url = *url;
    readModels(node, path, engine);
    readDriverFields(node, path, driver, engine);
    return engine;
}

void HostConfigReader::readModels(const JsonNode &node, const QString &path, EngineConfig &engine)
{
    const QString modelsPath = memberPath(path, u"models"_s);
    const JsonNode *models = m_fields.field(node, path, u"models"_s, Type::Array);
    if (!models)
        return;
    const std::optional<QStringList> list = m_fields.readStrings(*models, modelsPath);
    if (!list)
        return;
    for (qsizetype i = 0; i < list->size(); ++i) {
        const QString &key = list->at(i);
        const int line = models->children[std::size_t(i)].line;
        const QString keyPath = itemPath(modelsPath, std::size_t(i));
        if (key.trimmed().isEmpty() || key != key.trimmed())
            m_report.error(line, keyPath, tr("model keys must not be empty or start or end with spaces"));
        else if (engine.models.contains(key))
            m_report.warning(line, keyPath, tr("model \"%1\" is listed twice").arg(key));
        else
            engine.models.append(key);
    }
}

// argv, the timeouts and the start and stop commands, each used by some drivers only.
void HostConfigReader::readDriverFields(const JsonNode &node, const QString &path, const QString &driver,
                                        EngineConfig &engine)
{
    const bool driverKnown = !driver.isEmpty();
    // The agent has its own list of engines and argv; in the relay's file argv is optional there.
    if (driver == u"local" || driver == u"agent")
        m_fields.readArgv(node, path, engine, driver == u"local");
    else if (driverKnown)
        rejectField(node, path, u"argv"_s, tr("only used with drivers \"local\" and \"agent\""));

    for (const QString &key : {u"start_timeout_s"_s, u"stop_timeout_s"_s}) {
        std::chrono::milliseconds &target = key == u"start_timeout_s" ? engine.startTimeout : engine.stopTimeout;
        if (driver != u"static")
            m_fields.readSeconds(node, path, key, target);
        else
            rejectField(node, path, key, tr("not used with driver \"static\": its engines are never started or stopped"));
    }

    if (driver == u"static") {
        rejectField(node, path, u"idle_stop_after_s"_s, tr("not used with driver \"static\": its engine is never stopped"));
    } else {
        std::chrono::milliseconds idle{0};
        m_fields.readSeconds(node, path, u"idle_stop_after_s"_s, idle);
        if (idle.count() > 0)
            engine.idleStopAfter = idle;
        if (driver == u"agent")
            warnIfTheAgentDecides(node, path, u"idle_stop_after_s"_s);
    }

    for (const QString &key : {u"start"_s, u"stop"_s}) {
        if (driver == u"command") {
            if (const JsonNode *command = m_fields.field(node, path, key, Type::String, true)) {
                if (command->string.trimmed().isEmpty())
                    m_report.error(command->line, memberPath(path, key), tr("must not be empty"));
                else if (key == u"start")
                    engine.startCommand = command->string;
                else
                    engine.stopCommand = command->string;
            }
        } else if (driverKnown) {
            rejectField(node, path, key, tr("only used with driver \"command\""));
        }
    }
}

void HostConfigReader::rejectField(const JsonNode &object, const QString &objectPath, const QString &key,
                                   const QString &message)
{
    if (const JsonNode *unused = object.member(key))
        m_report.error(unused->line, memberPath(objectPath, key), message);
}

} // namespace switchyard
