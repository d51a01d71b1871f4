#include "shared/recordwords.h"

#include <QLocale>
#include <QRegularExpression>

#include <functional>

namespace switchyard {

using namespace Qt::StringLiterals;

namespace {

// "12" or "0.3" from a record (written with a '.'), in the user's way of writing numbers.
QString number(const QString &english)
{
    bool ok = false;
    const double value = english.toDouble(&ok);
    return ok ? QLocale().toString(value, 'g', 6) : english;
}

struct Shape
{
    QRegularExpression pattern;
    std::function<QString(const QRegularExpressionMatch &)> words;
};

// The records' shapes, each said in English exactly as recorded (an English window shows the
// record unchanged), as src/upstream (UpstreamExchange), src/catalog (Catalog) and src/replies
// (ClientReplies) and the relay write them; tst_guipieces's recordWords checks them against the
// catalogue's own output, so that a changed English record shows up as English in a test.
const QList<Shape> &shapes()
{
    static const QList<Shape> list = [] {
        auto re = [](const QString &p) { return QRegularExpression(u"\\A"_s + p + u"\\z"_s,
                                                                   QRegularExpression::DotMatchesEverythingOption); };
        auto inner = [](const QRegularExpressionMatch &m, int n) { return RecordWords::say(m.captured(n)); };
        QList<Shape> s;
        // The upstream exchange, to an engine.
        s.append({re(u"the engine refused the connection"_s),
                  [](const auto &) { return RecordWords::tr("the engine refused the connection"); }});
        s.append({re(u"the engine's host name does not resolve"_s),
                  [](const auto &) { return RecordWords::tr("the engine's host name does not resolve"); }});
        s.append({re(u"no connection within ([0-9.]+) s"_s),
                  [](const auto &m) { return RecordWords::tr("no connection within %1 s").arg(number(m.captured(1))); }});
        s.append({re(u"the engine sent nothing for ([0-9.]+) s"_s),
                  [](const auto &m) { return RecordWords::tr("the engine sent nothing for %1 s").arg(number(m.captured(1))); }});
        s.append({re(u"unreachable"_s), [](const auto &) { return RecordWords::tr("unreachable"); }});
        // The catalog's poll of a host.
        s.append({re(u"its model list \\(GET /models\\) answered with an error"_s),
                  [](const auto &) { return RecordWords::tr("its model list (GET /models) answered with an error"); }});
        // What the relay told a client (ClientReplies) and its own notes on a request.
        s.append({re(u"client closed the connection"_s),
                  [](const auto &) { return RecordWords::tr("client closed the connection"); }});
        s.append({re(u"host (\\S+) is down: (.*)"_s), [inner](const auto &m) {
                      return RecordWords::tr("host %1 is down: %2").arg(m.captured(1), inner(m, 2)); }});
        s.append({re(u"the engine is unreachable: (.*)"_s), [inner](const auto &m) {
                      return RecordWords::tr("the engine is unreachable: %1").arg(inner(m, 1)); }});
        s.append({re(u"upstream stopped answering: (.*)"_s), [inner](const auto &m) {
                      return RecordWords::tr("upstream stopped answering: %1").arg(inner(m, 1)); }});
        s.append({re(u"upstream failed before answering: (.*)"_s), [inner](const auto &m) {
                      return RecordWords::tr("upstream failed before answering: %1").arg(inner(m, 1)); }});
        s.append({re(u"upstream stream broke off: (.*)"_s), [inner](const auto &m) {
                      return RecordWords::tr("upstream stream broke off: %1").arg(inner(m, 1)); }});
        s.append({re(u"the engine could not load the model: (.*)"_s), [](const auto &m) {
                      return RecordWords::tr("the engine could not load the model: %1").arg(m.captured(1)); }});
        s.append({re(u"the engine failed to answer this request \\(its reason is in the relay's journal\\)"_s),
                  [](const auto &) { return RecordWords::tr("the engine failed to answer this request (its reason is in the relay's journal)"); }});
        s.append({re(u"the engine failed to answer this request: (.*)"_s), [](const auto &m) {
                      return RecordWords::tr("the engine failed to answer this request: %1").arg(m.captured(1)); }});
        s.append({re(u"model '(.*)' not found; known models: (.*)"_s), [](const auto &m) {
                      return RecordWords::tr("model '%1' not found; known models: %2").arg(m.captured(1), m.captured(2)); }});
        s.append({re(u"invalid API key"_s), [](const auto &) { return RecordWords::tr("invalid API key"); }});
        s.append({re(u"rewrote upstream (\\d+): (.*)"_s), [](const auto &m) {
                      return RecordWords::tr("rewrote upstream %1: %2").arg(m.captured(1), m.captured(2)); }});
        s.append({re(u"upstream answered (\\d+) after the early 200"_s), [](const auto &m) {
                      return RecordWords::tr("upstream answered %1 after the early 200").arg(m.captured(1)); }});
        s.append({re(u"the engine's error event went out as a 424"_s),
                  [](const auto &) { return RecordWords::tr("the engine's error event went out as a 424"); }});
        return s;
    }();
    return list;
}

} // namespace

QString RecordWords::say(const QString &record)
{
    for (const Shape &shape : shapes()) {
        const QRegularExpressionMatch m = shape.pattern.match(record);
        if (m.hasMatch())
            return shape.words(m);
    }
    return record;
}

} // namespace switchyard
