#include "engines/enginefailure.h"

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
        // The lock's own account, when there is one, says more than the path.
        return systemError.isEmpty() ? u"the supervisor could not take its state file %1"_s.arg(path) : systemError;
    case Kind::ForeignServer:
        return u"%1 already answers /health: a server Switchyard did not start is running there"_s
            .arg(url.toDisplayString());
    case Kind::NothingToStart:
        return u"no argv: nothing to start"_s;
    case Kind::CannotLaunch:
        if (runner != Runner::Process)
            return u"cannot run %1: %2"_s.arg(program, systemError);
        return u"cannot start %1: %2"_s.arg(program, systemError);
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

} // namespace switchyard
