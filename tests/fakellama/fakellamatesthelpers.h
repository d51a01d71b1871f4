#pragma once

#include "fakejsonsyntax.h"
#include "fakellamaserver.h"
#include "fakeinferencerequest.h"
#include "fakeoptions.h"
#include "rawhttpclient.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

namespace fakellamatest {

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using namespace switchyard::fake;

const QString kC = u"tiny-gpt2bpe-c"_s;
const QString kA = u"tiny-llama-a"_s;
const QString kB = u"tiny-llama-b"_s;

constexpr int kTimeout = 3000;

inline FakeOptions baseOptions()
{
    FakeOptions options;
    options.models = {kA, kB, kC};
    options.modelContext.insert(kB, 1024);
    options.loadDelay = 150ms;
    options.unloadDelay = 30ms;
    options.tokensPerSecond = 0;
    return options;
}

inline QByteArray ownHead(const QByteArray &statusLine, qsizetype length, bool close)
{
    return "HTTP/1.1 " + statusLine + "\r\nServer: llama.cpp\r\nAccess-Control-Allow-Origin: \r\n"
           "Content-Type: application/json; charset=utf-8\r\nContent-Length: "
        + QByteArray::number(length) + "\r\n" + (close ? "Connection: close\r\n" : "Keep-Alive: timeout=5, max=100\r\n")
        + "\r\n";
}

inline QByteArray routedHead(const QByteArray &contentType)
{
    return "HTTP/1.1 200 OK\r\nServer: llama.cpp\r\nAccess-Control-Allow-Origin: \r\nConnection: close\r\n"
           "X-Accel-Buffering: no\r\nContent-Type: "
        + contentType + "\r\nTransfer-Encoding: chunked\r\nKeep-Alive: timeout=5, max=100\r\n\r\n";
}

inline QByteArray routedErrorHead(const QByteArray &statusLine)
{
    return "HTTP/1.1 " + statusLine + "\r\nServer: llama.cpp\r\nAccess-Control-Allow-Origin: \r\nConnection: close\r\n"
           "X-Accel-Buffering: no\r\nContent-Type: application/json; charset=utf-8\r\n"
           "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n";
}

const QByteArray kStreamHead =
    "HTTP/1.1 200 OK\r\nServer: llama.cpp\r\nAccess-Control-Allow-Origin: \r\nX-Accel-Buffering: no\r\n"
    "Content-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\nKeep-Alive: timeout=5, max=100\r\n\r\n";

inline QByteArray chunked(const QByteArray &body)
{
    return QByteArray::number(body.size(), 16) + "\r\n" + body + "\r\n0\r\n\r\n";
}

inline QByteArray chatBody(const QString &model, int maxTokens, bool stream, const QJsonObject &extra = {})
{
    QJsonObject body{{u"model"_s, model},
                     {u"messages"_s, QJsonArray{QJsonObject{{u"role"_s, u"user"_s}, {u"content"_s, u"Hello there"_s}}}}};
    if (maxTokens >= 0)
        body.insert(u"max_tokens"_s, maxTokens);
    if (stream)
        body.insert(u"stream"_s, true);
    for (auto it = extra.begin(); it != extra.end(); ++it)
        body.insert(it.key(), it.value());
    return QJsonDocument(body).toJson(QJsonDocument::Compact);
}

inline QJsonObject jsonOf(const QByteArray &bytes)
{
    return QJsonDocument::fromJson(bytes).object();
}

// The `data:` payloads of an SSE body (skipping `:` comments).
inline QList<QByteArray> sseData(const QByteArray &body)
{
    QList<QByteArray> out;
    for (const QByteArray &frame : body.split('\n')) {
        if (frame.startsWith("data: "))
            out.append(frame.mid(6));
    }
    return out;
}

// The `event:` names of an Anthropic-style SSE body.
inline QList<QByteArray> sseEvents(const QByteArray &body)
{
    QList<QByteArray> out;
    for (const QByteArray &line : body.split('\n')) {
        if (line.startsWith("event: "))
            out.append(line.mid(7));
    }
    return out;
}

inline QByteArray words(int count)
{
    QByteArray text;
    for (int i = 0; i < count; ++i)
        text += (i ? " word" : "word") + QByteArray::number(i);
    return text;
}

#define START_SERVER(var, options)                                                                                   \
    auto var = std::make_unique<FakeLlamaServer>(options);                                                           \
    QVERIFY2(var->listen(), qPrintable(var->errorString()))

#define CONNECT_CLIENT(var, server)                                                                                  \
    auto var = std::make_unique<RawHttpClient>((server)->port());                                                    \
    QVERIFY(var->connectToServer())

} // namespace fakellamatest
