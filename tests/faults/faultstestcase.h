#pragma once

#include "faultstesthelpers.h"

#include <QObject>
#include <QStringList>
#include <QTest>

namespace faultstest {

// The fault tests' common case: the binaries are built, a first relay warmed up, and after every
// case the test process's open fds back to where they were. The relay runs in-process here, so
// a leaked socket of the relay is a leaked fd of this process. QTest calls these slots of the
// base by name before and after each test function of the derived class.
class FaultsTestCase : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(QFile::exists(binary(u"switchyard-fakellama"_s)), qPrintable(binary(u"switchyard-fakellama"_s)));
        QVERIFY2(QFile::exists(binary(u"switchyard"_s)), qPrintable(binary(u"switchyard"_s)));
        // Warm-up: the first relay, store and request open what the process keeps for good (Qt's
        // network and SQL plugins, the event dispatcher's fds), so the per-case baseline is true.
        Recorder recorder;
        RelayFixture f;
        QVERIFY(f.start(routerOptions()));
        recorder.attach(f.relay.get());
        RawHttpClient client(f.port());
        QVERIFY(client.connectToServer());
        client.send(RawHttpClient::post("/v1/chat/completions", bodyFor("h1-alpha", 3, true)));
        QTRY_COMPARE_WITH_TIMEOUT(client.completedResponses(), 1, 10000);
        QCOMPARE(recorder.rows().size(), 1);
    }

    void init()
    {
        QTest::qWait(0);   // let deferred deletes of the previous case run first
        m_fdsBefore = openFds();
        m_fdTargetsBefore = fdTargets();
    }

    void cleanup()
    {
        // Everything of the case is gone (its locals are destroyed); sockets closed with
        // deleteLater go at the next event loop turns.
        QTRY_VERIFY2_WITH_TIMEOUT(openFds() <= m_fdsBefore,
                                  qPrintable(u"%1 fds open after the case, %2 before; before: %3; after: %4"_s
                                                 .arg(openFds()).arg(m_fdsBefore)
                                                 .arg(m_fdTargetsBefore.join(u' '), fdTargets().join(u' '))),
                                  5000);
    }

private:
    int m_fdsBefore = 0;
    QStringList m_fdTargetsBefore;
};

} // namespace faultstest
