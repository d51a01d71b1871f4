#include "engines/enginefailure.h"

#include <QFileDevice>
#include <QFileInfo>
#include <QJsonArray>
#include <QStandardPaths>

namespace switchyard {

using namespace Qt::StringLiterals;

namespace {

QString exitText(const EngineFailure::Exit &exit)
{
    return exit.killed ? u"killed by signal %1"_s.arg(exit.code) : u"exited with code %1"_s.arg(exit.code);
}

QString withTail(QString text, const QString &tail)
{
    if (!tail.isEmpty())
        text += u": "_s + tail;
    return text;
}

// QFileDevice::FileError in the catalogue's words (QFile's own come from Qt's catalogue).
QString fileErrorText(int error)
{
    switch (QFileDevice::FileError(error)) {
    case QFileDevice::OpenError: return u"it cannot be opened"_s;
    case QFileDevice::WriteError: return u"writing it failed"_s;
    case QFileDevice::PermissionsError: return u"permission denied"_s;
    case QFileDevice::ResourceError: return u"out of resources (is the disk full?)"_s;
    case QFileDevice::RenameError: return u"it cannot be replaced"_s;
    default: return u"file error %1"_s.arg(error);
    }
}

} // namespace

EngineFailure::EngineFailure(const QString &reported)
    : text(reported)
{
}

EngineFailure EngineFailure::of(Kind kind)
{
    EngineFailure failure;
    failure.kind = kind;
    return failure;
}

QString EngineFailure::seconds(std::chrono::milliseconds duration)
{
    const qint64 ms = duration.count();
    const QString number = ms % 1000 == 0 ? QString::number(ms / 1000) : QString::number(double(ms) / 1000.0, 'g', 6);
    return u"%1 s"_s.arg(number);
}

QString EngineFailure::toString() const
{
    switch (kind) {
    case Kind::Reported:
        return text;
    case Kind::NoSuchEngine:
        if (!engines.isEmpty())
            return u"no engine called %1 (engines: %2)"_s.arg(engine, engines.join(u", "_s));
        return u"no engine called %1 on host %2"_s.arg(engine, host);
    case Kind::StaticHost:
        return u"host %1 is static: it runs engine %2 and never switches"_s.arg(host, engine);
    case Kind::StateFileUnavailable:
        switch (stateFile) {
        case StateFile::NoFolder:
            return u"cannot create the folder of the state file %1"_s.arg(path);
        case StateFile::HeldByOther:
            return u"another supervisor (%1, pid %2) uses the state file %3"_s.arg(holder).arg(holderPid).arg(path);
        case StateFile::NotLocked:
            return u"cannot lock the state file %1"_s.arg(path);
        case StateFile::NotWritten:
            return u"cannot write the state file %1: %2"_s.arg(path, fileErrorText(fileError));
        case StateFile::Unknown:
            break;
        }
        // An older agent's account, when there is one, says more than the path.
        return systemError.isEmpty() ? u"the supervisor could not take its state file %1"_s.arg(path) : systemError;
    case Kind::ForeignServer:
        return u"%1 already answers /health: a server Switchyard did not start is running there"_s
            .arg(url.toDisplayString());
    case Kind::NothingToStart:
        return u"no argv: nothing to start"_s;
    case Kind::CannotLaunch: {
        // An older agent's failure carries only its system error.
        const QString why = launch == Launch::NotFound        ? u"no such file"_s
                            : launch == Launch::NotExecutable ? u"it is not executable"_s
                            : !systemError.isEmpty()          ? systemError
                                                              : u"the system could not run it"_s;
        if (runner != Runner::Process)
            return u"cannot run %1: %2"_s.arg(program, why);
        return u"cannot start %1: %2"_s.arg(program, why);
    }
    case Kind::Ended: {
        const QString ended = exit ? exitText(*exit) : u"ended"_s;
        return withTail(runner == Runner::StartCommand ? u"the start command "_s + ended : ended, outputTail);
    }
    case Kind::NoHealth: {
        QString line = runner == Runner::StartCommand ? u"no /health within %1 of the start command"_s.arg(seconds(timeout))
                                                      : u"no /health within %1"_s.arg(seconds(timeout));
        if (!lastTry.isEmpty())
            line += u" (last try: %1)"_s.arg(lastTry);
        if (!outputTail.isEmpty())
            line += u"; last output: %1"_s.arg(outputTail);
        return line;
    }
    case Kind::StillAnswers: {
        QString line = u"engine %1 of host %2 still answers /health %3 after its stop command"_s
                           .arg(engine, host, seconds(timeout));
        if (exit)
            line += u" (which %1)"_s.arg(withTail(exitText(*exit), outputTail));
        return line;
    }
    case Kind::Superseded:
        return u"superseded by a switch to engine %1"_s.arg(other);
    case Kind::StoppedBeforeReady:
        return u"stopped before it was ready"_s;
    case Kind::NoEngineReachable:
        return u"host %1: no engine can be reached: %2"_s.arg(host, lastTry);
    }
    return text;
}

namespace {

// The kinds by name on the wire, so that a relay and an agent one release apart still agree.
const char *const KindNames[] = {"reported", "no_such_engine", "static_host", "state_file_unavailable",
                                 "foreign_server", "nothing_to_start", "cannot_launch", "ended", "no_health",
                                 "still_answers", "superseded", "stopped_before_ready", "no_engine_reachable"};
const char *const RunnerNames[] = {"process", "start_command", "stop_command"};
const char *const LaunchNames[] = {"unknown", "not_found", "not_executable"};
const char *const StateFileNames[] = {"unknown", "no_folder", "held_by_other", "not_locked", "not_written"};

template<typename Enum, size_t N>
Enum byName(const char *const (&names)[N], const QString &name, Enum fallback)
{
    for (size_t i = 0; i < N; ++i) {
        if (name == QLatin1StringView(names[i]))
            return Enum(i);
    }
    return fallback;
}

void putText(QJsonObject &o, QLatin1StringView key, const QString &value)
{
    if (!value.isEmpty())
        o.insert(key, value);
}

} // namespace

QJsonObject EngineFailure::toJson() const
{
    QJsonObject o{{"kind"_L1, QLatin1StringView(KindNames[int(kind)])},
                  {"runner"_L1, QLatin1StringView(RunnerNames[int(runner)])}};
    putText(o, "host"_L1, host);
    putText(o, "engine"_L1, engine);
    if (!engines.isEmpty())
        o.insert("engines"_L1, QJsonArray::fromStringList(engines));
    putText(o, "other"_L1, other);
    putText(o, "program"_L1, program);
    putText(o, "path"_L1, path);
    putText(o, "url"_L1, url.toString());
    putText(o, "system_error"_L1, systemError);
    if (launch != Launch::Unknown)
        o.insert("launch"_L1, QLatin1StringView(LaunchNames[int(launch)]));
    if (stateFile != StateFile::Unknown)
        o.insert("state_file"_L1, QLatin1StringView(StateFileNames[int(stateFile)]));
    putText(o, "holder"_L1, holder);
    if (holderPid != 0)
        o.insert("holder_pid"_L1, double(holderPid));
    if (fileError != 0)
        o.insert("file_error"_L1, fileError);
    if (exit)
        o.insert("exit"_L1, QJsonObject{{"code"_L1, exit->code}, {"killed"_L1, exit->killed}});
    if (timeout.count() > 0)
        o.insert("timeout_ms"_L1, double(timeout.count()));
    putText(o, "last_try"_L1, lastTry);
    putText(o, "output_tail"_L1, outputTail);
    putText(o, "text"_L1, text);
    return o;
}

EngineFailure EngineFailure::fromJson(const QJsonObject &o)
{
    EngineFailure f;
    f.kind = byName(KindNames, o.value("kind"_L1).toString(), Kind::Reported);
    f.runner = byName(RunnerNames, o.value("runner"_L1).toString(), Runner::Process);
    f.host = o.value("host"_L1).toString();
    f.engine = o.value("engine"_L1).toString();
    for (const QJsonValue &v : o.value("engines"_L1).toArray())
        f.engines.append(v.toString());
    f.other = o.value("other"_L1).toString();
    f.program = o.value("program"_L1).toString();
    f.path = o.value("path"_L1).toString();
    f.url = QUrl(o.value("url"_L1).toString());
    f.systemError = o.value("system_error"_L1).toString();
    f.launch = byName(LaunchNames, o.value("launch"_L1).toString(), Launch::Unknown);
    f.stateFile = byName(StateFileNames, o.value("state_file"_L1).toString(), StateFile::Unknown);
    f.holder = o.value("holder"_L1).toString();
    f.holderPid = qint64(o.value("holder_pid"_L1).toDouble());
    f.fileError = o.value("file_error"_L1).toInt();
    if (o.value("exit"_L1).isObject()) {
        const QJsonObject e = o.value("exit"_L1).toObject();
        f.exit = Exit{e.value("code"_L1).toInt(), e.value("killed"_L1).toBool()};
    }
    f.timeout = std::chrono::milliseconds(qint64(o.value("timeout_ms"_L1).toDouble()));
    f.lastTry = o.value("last_try"_L1).toString();
    f.outputTail = o.value("output_tail"_L1).toString();
    f.text = o.value("text"_L1).toString();
    // An unknown kind from a newer agent still says something.
    if (f.kind == Kind::Reported && f.text.isEmpty() && o.contains("kind"_L1))
        f.text = o.value("kind"_L1).toString();
    return f;
}

EngineFailure EngineFailure::stateFileUnavailable(const QString &path, StateFile why)
{
    EngineFailure f = of(Kind::StateFileUnavailable);
    f.path = path;
    f.stateFile = why;
    return f;
}

EngineFailure EngineFailure::cannotLaunch(const QString &program, Runner runner)
{
    EngineFailure f = of(Kind::CannotLaunch);
    f.runner = runner;
    f.program = program;
    const QString file = program.contains(u'/') ? program : QStandardPaths::findExecutable(program);
    const QFileInfo info(file);
    if (file.isEmpty() || !info.exists())
        f.launch = Launch::NotFound;
    // No execute bit at all: root's isExecutable() says yes to any file.
    else if (info.isDir() || !info.isExecutable() || !(info.permissions() & (QFile::ExeOwner | QFile::ExeGroup | QFile::ExeOther)))
        f.launch = Launch::NotExecutable;
    return f;
}

} // namespace switchyard
