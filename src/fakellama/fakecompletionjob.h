#pragma once

#include "fakegenerationplan.h"

#include <QElapsedTimer>
#include <QObject>
#include <QPointer>
#include <QTimer>

namespace switchyard::fake {

class FakeHttpConnection;

// Paces one answer on the wire: headers, `:` pings while "prefilling", then
// one token per 1/rate seconds, each streamed event in its own HTTP chunk
// (the role chunk rides with the first token, as in transcript 14). A
// non-streamed answer is written whole once the last token is "generated".
class FakeCompletionJob final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FakeCompletionJob)

public:
    FakeCompletionJob(FakeHttpConnection *connection, FakeGenerationPlan plan, QObject *parent = nullptr);
    ~FakeCompletionJob() override;

    void start();
    void stop();  // the client left: generate nothing more
    void abort(); // the model's server died: cut the connection
    bool isRunning() const { return m_running; }
    int tokensSent() const { return m_sent; }

    static const QByteArray PingFrame;

signals:
    void headersSent(int status);
    void tokenSent(int total);
    void finished(); // the answer is complete, or ended by the planned failure

private:
    void beginTokens();
    void onTick();
    void scheduleNext();
    double dueMs(int index) const;
    void emitToken();
    void complete();
    void failNow();
    FakeGenerationStats stats() const;
    QByteArray jsonHead(int status) const;

    QPointer<FakeHttpConnection> m_connection;
    FakeGenerationPlan m_plan;
    QTimer m_tickTimer;
    QTimer m_prefillTimer;
    QTimer m_pingTimer;
    QElapsedTimer m_clock;
    int m_sent = 0;
    bool m_running = false;
};

} // namespace switchyard::fake
