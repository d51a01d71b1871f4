#include "shared/failurewords.h"

#include "hosts/recordedfacts.h"

#include <QFileDevice>
#include <QLocale>

namespace switchyard {

using namespace Qt::StringLiterals;

namespace {

QString seconds(std::chrono::milliseconds duration)
{
    return FailureWords::tr("%1 s").arg(QLocale().toString(double(duration.count()) / 1000.0, 'g', 6));
}

QString exitText(const EngineFailure::Exit &exit)
{
    return exit.killed ? FailureWords::tr("killed by signal %1").arg(exit.code)
                       : FailureWords::tr("exited with code %1").arg(exit.code);
}

QString fileError(int error)
{
    switch (QFileDevice::FileError(error)) {
    case QFileDevice::OpenError: return FailureWords::tr("it cannot be opened");
    case QFileDevice::WriteError: return FailureWords::tr("writing it failed");
    case QFileDevice::PermissionsError: return FailureWords::tr("permission denied");
    case QFileDevice::ResourceError: return FailureWords::tr("out of resources (is the disk full?)");
    case QFileDevice::RenameError: return FailureWords::tr("it cannot be replaced");
    default: return FailureWords::tr("file error %1").arg(error);
    }
}

QString withTail(QString text, const QString &tail)
{
    if (!tail.isEmpty())
        text += u": "_s + tail;   // the engine's own output, as it printed it
    return text;
}

} // namespace

QString FailureWords::engineFailure(const EngineFailure &f)
{
    using Kind = EngineFailure::Kind;
    switch (f.kind) {
    case Kind::Reported:
        return f.text;   // another process's words, as it said them
    case Kind::NoSuchEngine:
        if (!f.engines.isEmpty())
            return tr("no engine called %1 (engines: %2)").arg(f.engine, f.engines.join(u", "_s));
        return tr("no engine called %1 on host %2").arg(f.engine, f.host);
    case Kind::StaticHost:
        return tr("host %1 is static: it runs engine %2 and never switches").arg(f.host, f.engine);
    case Kind::StateFileUnavailable:
        switch (f.stateFile) {
        case EngineFailure::StateFile::NoFolder:
            return tr("cannot create the folder of the state file %1").arg(f.path);
        case EngineFailure::StateFile::HeldByOther:
            return tr("another supervisor (%1, pid %2) uses the state file %3").arg(f.holder).arg(f.holderPid).arg(f.path);
        case EngineFailure::StateFile::NotLocked:
            return tr("cannot lock the state file %1").arg(f.path);
        case EngineFailure::StateFile::NotWritten:
            return tr("cannot write the state file %1: %2").arg(f.path, fileError(f.fileError));
        case EngineFailure::StateFile::Unknown:
            break;
        }
        return f.systemError.isEmpty() ? tr("the supervisor could not take its state file %1").arg(f.path)
                                       : f.systemError;   // an older agent's own words
    case Kind::ForeignServer:
        return tr("%1 already answers /health: a server Switchyard did not start is running there")
            .arg(f.url.toDisplayString());
    case Kind::NothingToStart:
        return tr("no argv: nothing to start");
    case Kind::CannotLaunch: {
        const QString why = f.launch == EngineFailure::Launch::NotFound        ? tr("no such file")
                            : f.launch == EngineFailure::Launch::NotExecutable ? tr("it is not executable")
                            : !f.systemError.isEmpty()                          ? f.systemError
                                                                                : tr("the system could not run it");
        if (f.runner != EngineFailure::Runner::Process)
            return tr("cannot run %1: %2").arg(f.program, why);
        return tr("cannot start %1: %2").arg(f.program, why);
    }
    case Kind::Ended: {
        const QString ended = f.exit ? exitText(*f.exit) : tr("ended");
        return withTail(f.runner == EngineFailure::Runner::StartCommand ? tr("the start command %1").arg(ended) : ended,
                        f.outputTail);
    }
    case Kind::NoHealth: {
        QString text = f.runner == EngineFailure::Runner::StartCommand
            ? tr("no /health within %1 of the start command").arg(seconds(f.timeout))
            : tr("no /health within %1").arg(seconds(f.timeout));
        if (!f.lastTry.isEmpty())
            text += tr(" (last try: %1)").arg(f.lastTry);
        if (!f.outputTail.isEmpty())
            text += tr("; last output: %1").arg(f.outputTail);
        return text;
    }
    case Kind::StillAnswers: {
        QString text = tr("engine %1 of host %2 still answers /health %3 after its stop command")
                           .arg(f.engine, f.host, seconds(f.timeout));
        if (f.exit)
            text += tr(" (which %1)").arg(withTail(exitText(*f.exit), f.outputTail));
        return text;
    }
    case Kind::Superseded:
        return tr("superseded by a switch to engine %1").arg(f.other);
    case Kind::StoppedBeforeReady:
        return tr("stopped before it was ready");
    case Kind::NoEngineReachable:
        return tr("host %1: no engine can be reached: %2").arg(f.host, f.lastTry);
    }
    return f.toString();
}

QString FailureWords::refusal(const HostRefusal &why)
{
    using Reason = HostRefusal::Reason;
    switch (why.reason) {
    case Reason::Leased:
        return tr("%1 is leased by %2 until %3")
            .arg(why.host, why.owner, QLocale().toString(why.until.toLocalTime(), QLocale::ShortFormat));
    case Reason::SwitchFailed:
        return why.failure ? engineFailure(*why.failure) : tr("the engine did not start");
    case Reason::StaticHost:
        return tr("%1 runs one static engine and cannot switch").arg(why.host);
    case Reason::NoSuchEngine:
        return tr("%1 has no engine %2 (its engines: %3)").arg(why.host, why.engine, why.engines.join(u", "_s));
    case Reason::LeaseTakenOver:
        return tr("the lease on %1 was taken by %2 before it was granted").arg(why.host, why.owner);
    case Reason::LeaseReleased:
        return tr("the lease on %1 was released before it was granted").arg(why.host);
    case Reason::WakeTimedOut:
        return tr("%1 did not wake within %2").arg(why.host, seconds(why.wakeTimeout));
    }
    return why.facts();
}

QString FailureWords::requestRefused(const HostRefusal &why)
{
    if (why.reason == HostRefusal::Reason::SwitchFailed)
        return tr("switching host %1 to engine %2 failed: %3").arg(why.host, why.engine, refusal(why));
    return refusal(why);
}

QString FailureWords::recorded(const QJsonObject &facts, const QString &text)
{
    if (const std::optional<EngineFailure> failure = RecordedFacts::engineFailure(facts))
        return engineFailure(*failure);
    if (const std::optional<HostRefusal> why = RecordedFacts::refusal(facts))
        return requestRefused(*why);
    return text;
}

QString FailureWords::eventDetail(const QJsonObject &facts, const QString &text)
{
    if (const std::optional<HostRefusal> why = RecordedFacts::refusal(facts);
        why && why->reason == HostRefusal::Reason::WakeTimedOut)
        return tr("no answer within %1").arg(seconds(why->wakeTimeout));
    return recorded(facts, text);
}

} // namespace switchyard
