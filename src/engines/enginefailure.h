#pragma once

#include <QJsonObject>
#include <QMetaType>
#include <QString>
#include <QStringList>
#include <QUrl>

#include <chrono>
#include <optional>

namespace switchyard {

// Why an engine did not start, stopped badly or cannot be reached: the facts, never a reader's
// words. The drivers hand it up; the client catalogue (src/replies) and the window (ui/, through
// tr()) word it for their readers. toString() is its record: the journal, the history and the
// logs keep it, in English like every record.
struct EngineFailure
{
    enum class Kind {
        Reported,               // another process said why (the agent's answer): `text`
        NoSuchEngine,           // `engine` is not configured (on `host`; of `engines`)
        StaticHost,             // `host` is static: it runs `engine` and never switches
        StateFileUnavailable,   // the supervisor could not take its state file `path`: `stateFile`
        ForeignServer,          // `url` already answers /health: a server we did not start runs there
        NothingToStart,         // the engine has no argv
        CannotLaunch,           // `program` did not start: `systemError`
        Ended,                  // the process (or start command) ended: `exit`
        NoHealth,               // no /health within `timeout`; `lastTry`, `exit`-less `outputTail`
        StillAnswers,           // `engine` of `host` still answers /health `timeout` after its stop
                                // command (which ended with `exit`, when it did not end well)
        Superseded,             // a switch to `other` came first
        StoppedBeforeReady,     // stopped before /health answered
        NoEngineReachable,      // no engine of `host` answers: `lastTry`
    };
    // Who ran: the engine's own process (local driver, agent) or the command driver's lines.
    enum class Runner { Process, StartCommand, StopCommand };
    // Why `program` did not launch, as found by looking at the file. Not QProcess's words: Qt's
    // catalogue translates them, and a German desktop's relay sent German to API clients.
    enum class Launch { Unknown, NotFound, NotExecutable };
    // Why the state file could not be taken, as facts for the same reason: QFile's and QLockFile's
    // words come from Qt's catalogue. Unknown: an older agent's failure, with its `systemError`.
    enum class StateFile {
        Unknown,
        NoFolder,      // its folder cannot be created
        HeldByOther,   // another live supervisor holds its lock: `holder` (an application), `holderPid`
        NotLocked,     // its lock cannot be taken (the lock file cannot be written)
        NotWritten,    // it cannot be written: `fileError`
    };
    struct Exit
    {
        int code = 0;           // the exit code, or the signal when `killed`
        bool killed = false;
    };

    EngineFailure() = default;
    // What another process said in its own words. Implicit, so that a driver that still words its
    // failures (the agent driver, until issue 33) hands up its text as it is.
    EngineFailure(const QString &reported);   // NOLINT(google-explicit-constructor)

    Kind kind = Kind::Reported;
    Runner runner = Runner::Process;
    QString host;
    QString engine;
    QStringList engines;
    QString other;
    QString program;
    QString path;
    QUrl url;
    QString systemError;
    Launch launch = Launch::Unknown;   // Kind::CannotLaunch
    StateFile stateFile = StateFile::Unknown;   // Kind::StateFileUnavailable
    QString holder;
    qint64 holderPid = 0;
    int fileError = 0;    // a QFileDevice::FileError
    std::optional<Exit> exit;
    std::chrono::milliseconds timeout{0};
    QString lastTry;      // the last /health attempt's answer, as the health check put it
    QString outputTail;   // the last lines the process printed
    QString text;         // Kind::Reported

    static EngineFailure of(Kind kind);
    // A CannotLaunch for `program` (a path, or a name looked up in PATH), with what is wrong with it.
    static EngineFailure cannotLaunch(const QString &program, Runner runner);
    // A StateFileUnavailable for the state file at `path`, for `why`.
    static EngineFailure stateFileUnavailable(const QString &path, StateFile why);
    // "12 s", "1.5 s": how the records and the catalogue give a timeout.
    static QString seconds(std::chrono::milliseconds duration);
    QString toString() const;
    // Every fact, for the agent protocol: a relay words a failure on a shared box itself.
    QJsonObject toJson() const;
    static EngineFailure fromJson(const QJsonObject &object);
};

} // namespace switchyard

Q_DECLARE_METATYPE(switchyard::EngineFailure)
