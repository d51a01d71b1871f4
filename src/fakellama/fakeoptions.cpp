#include "fakeoptions.h"

#include <QCommandLineParser>

using namespace Qt::StringLiterals;

namespace switchyard::fake {

namespace {

struct Flag
{
    const char *name;
    const char *valueName; // nullptr = a switch
    const char *help;
};

constexpr Flag kFlags[] = {
    {"port", "N", "port to listen on (0 = any; the real one is printed)"},
    {"host", "ADDR", "address to listen on (default 127.0.0.1)"},
    {"models", "A,B,C", "model ids the router serves (required)"},
    {"load-ms", "N", "how long a model takes to load (default 500)"},
    {"unload-ms", "N", "how long a model takes to unload (default 50)"},
    {"tokens-per-s", "N", "generation speed; 0 = as fast as possible (default 1000)"},
    {"max-models", "N", "models loaded at once before LRU eviction (default 4)"},
    {"ctx", "N", "n_ctx of every model (default 4096)"},
    {"model-ctx", "NAME=N", "n_ctx of one model (repeatable)"},
    {"fail-load", "NAME", "this model fails to load (repeatable)"},
    {"loaded", "NAME", "this model is loaded at start (repeatable)"},
    {"single-model", nullptr, "behave as a plain llama-server with one model"},
    {"no-autoload", nullptr, "requests for an unloaded model fail instead of loading it"},
    {"prefill-ms", "N", "silence after a stream's headers before its first token"},
    {"ping-ms", "N", "SSE ping interval during that silence (default 30000)"},
    {"reject-late-system", nullptr, "refuse a system message after the first one, like some chat templates"},
    {"max-tokens", "N", "answer length when a request sets no max_tokens (default 16)"},
    {"max-reply-tokens", "N", "answers end naturally after this many tokens (default: never)"},
    {"slot-save-path", "DIR", "where POST /slots/N?action=save writes (default: slot actions refused)"},
    {"slots", "N", "slots per model (default 4)"},
    {"slot-bytes-per-token", "N", "size of a saved slot per cached token (default 1024)"},
    {"slot-save-ms", "N", "how long a slot save takes (default 0)"},
    {"slot-restore-ms", "N", "how long a slot restore takes (default 0)"},
};

bool toCount(const QString &text, int *out, int minimum = 0)
{
    bool ok = false;
    const int value = text.toInt(&ok);
    if (!ok || value < minimum)
        return false;
    *out = value;
    return true;
}

} // namespace

QString fakeOptionsUsage()
{
    QString usage = u"usage: switchyard-fakellama --models a,b,c [options]\n"_s;
    for (const Flag &flag : kFlags) {
        QString left = u"  --"_s + QLatin1StringView(flag.name);
        if (flag.valueName)
            left += u' ' + QLatin1StringView(flag.valueName);
        usage += left.leftJustified(26) + u' ' + QLatin1StringView(flag.help) + u'\n';
    }
    return usage;
}

FakeOptions parseFakeOptions(const QStringList &arguments, QString *error)
{
    QCommandLineParser parser;
    for (const Flag &flag : kFlags) {
        const QString name = QLatin1StringView(flag.name);
        if (flag.valueName)
            parser.addOption(QCommandLineOption(name, QLatin1StringView(flag.help), QLatin1StringView(flag.valueName)));
        else
            parser.addOption(QCommandLineOption(name, QLatin1StringView(flag.help)));
    }

    auto fail = [error](const QString &message) {
        if (error)
            *error = message;
        return FakeOptions{};
    };

    if (!parser.parse(arguments))
        return fail(parser.errorText());
    if (!parser.positionalArguments().isEmpty())
        return fail(u"unexpected argument: "_s + parser.positionalArguments().constFirst());

    FakeOptions options;
    QString problem;
    auto count = [&](const char *name, int minimum, auto apply) {
        const QString key = QLatin1StringView(name);
        if (!parser.isSet(key))
            return true;
        int number = 0;
        if (!toCount(parser.value(key), &number, minimum)) {
            problem = u"--%1 wants a number >= %2, not '%3'"_s.arg(key).arg(minimum).arg(parser.value(key));
            return false;
        }
        apply(number);
        return true;
    };

    int port = 0;
    if (!count("port", 0, [&](int n) { port = n; }))
        return fail(problem);
    if (port > 65535)
        return fail(u"--port must be below 65536"_s);
    options.port = quint16(port);
    if (parser.isSet(u"host"_s)) {
        const QHostAddress host(parser.value(u"host"_s));
        if (host.isNull())
            return fail(u"--host wants an IP address, not '%1'"_s.arg(parser.value(u"host"_s)));
        options.host = host;
    }

    for (const QString &name : parser.value(u"models"_s).split(u',', Qt::SkipEmptyParts)) {
        const QString trimmed = name.trimmed();
        if (!trimmed.isEmpty() && !options.models.contains(trimmed))
            options.models.append(trimmed);
    }
    if (options.models.isEmpty())
        return fail(u"--models is required (a comma-separated list of model ids)"_s);

    const bool numbersOk =
        count("load-ms", 0, [&](int n) { options.loadDelay = std::chrono::milliseconds(n); })
        && count("unload-ms", 0, [&](int n) { options.unloadDelay = std::chrono::milliseconds(n); })
        && count("max-models", 0, [&](int n) { options.maxModels = n; })
        && count("ctx", 1, [&](int n) { options.contextSize = n; })
        && count("prefill-ms", 0, [&](int n) { options.prefillDelay = std::chrono::milliseconds(n); })
        && count("ping-ms", 0, [&](int n) { options.pingInterval = std::chrono::milliseconds(n); })
        && count("max-tokens", 0, [&](int n) { options.defaultMaxTokens = n; })
        && count("max-reply-tokens", 0, [&](int n) { options.maxReplyTokens = n; })
        && count("slots", 1, [&](int n) { options.slotCount = n; })
        && count("slot-bytes-per-token", 0, [&](int n) { options.slotBytesPerToken = n; })
        && count("slot-save-ms", 0, [&](int n) { options.slotSaveDelay = std::chrono::milliseconds(n); })
        && count("slot-restore-ms", 0, [&](int n) { options.slotRestoreDelay = std::chrono::milliseconds(n); });
    if (!numbersOk)
        return fail(problem);

    if (parser.isSet(u"tokens-per-s"_s)) {
        bool ok = false;
        const double rate = parser.value(u"tokens-per-s"_s).toDouble(&ok);
        if (!ok || rate < 0)
            return fail(u"--tokens-per-s wants a number >= 0, not '%1'"_s.arg(parser.value(u"tokens-per-s"_s)));
        options.tokensPerSecond = rate;
    }

    for (const QString &entry : parser.values(u"model-ctx"_s)) {
        const qsizetype eq = entry.lastIndexOf(u'=');
        int ctx = 0;
        if (eq <= 0 || !toCount(entry.mid(eq + 1), &ctx, 1))
            return fail(u"--model-ctx wants NAME=N, not '%1'"_s.arg(entry));
        options.modelContext.insert(entry.left(eq), ctx);
    }

    auto knownModels = [&](const QString &flag, QStringList *target) {
        for (const QString &name : parser.values(flag)) {
            if (!options.models.contains(name)) {
                problem = u"--%1 %2: not one of --models"_s.arg(flag, name);
                return false;
            }
            target->append(name);
        }
        return true;
    };
    if (!knownModels(u"fail-load"_s, &options.failLoad) || !knownModels(u"loaded"_s, &options.loaded))
        return fail(problem);
    for (const QString &name : std::as_const(options.modelContext).keys()) {
        if (!options.models.contains(name))
            return fail(u"--model-ctx %1: not one of --models"_s.arg(name));
    }

    options.slotSavePath = parser.value(u"slot-save-path"_s);
    options.singleModel = parser.isSet(u"single-model"_s);
    if (options.singleModel && options.models.size() != 1)
        return fail(u"--single-model serves exactly one model"_s);
    options.autoload = !parser.isSet(u"no-autoload"_s);
    options.rejectLateSystem = parser.isSet(u"reject-late-system"_s);

    if (error)
        error->clear();
    return options;
}

} // namespace switchyard::fake
