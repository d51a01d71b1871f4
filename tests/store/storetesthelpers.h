#pragma once

#include "journal/journalformat.h"
#include "journal/requestrecord.h"
#include "common/clock.h"
#include "store/historyevent.h"
#include "store/historyschema.h"
#include "store/historystore.h"
#include "store/redactor.h"
#include "store/requestlogmodel.h"
#include "store/timelinemodel.h"

#include <QAbstractItemModelTester>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QSignalSpy>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <cstdio>
#include <memory>

namespace storetest {

using namespace switchyard;
using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

class FakeClock final : public Clock
{
public:
    explicit FakeClock(QDateTime now) : m_now(std::move(now)) {}
    QDateTime now() const override { return m_now; }
    void advance(std::chrono::seconds by) { m_now = m_now.addSecs(by.count()); }

private:
    QDateTime m_now;
};

inline QDateTime baseTime()
{
    return QDateTime(QDate(2026, 10, 24), QTime(22, 21, 38, 674));
}

inline RequestRecord makeRecord(const QString &model, const QString &host, int status,
                         const QDateTime &startedAt = {})
{
    RequestRecord r;
    r.startedAt = startedAt;
    r.method = u"POST"_s;
    r.path = u"/v1/chat/completions"_s;
    r.model = model;
    r.host = host;
    r.engine = u"fork"_s;
    r.status = status;
    r.bytesOut = 1234;
    r.duration = 2326ms;
    r.clientAddress = u"192.0.2.10"_s;
    r.userAgent = u"Python-urllib/3.14"_s;
    return r;
}

inline HistoryEvent makeEvent(HistoryEvent::Kind kind, const QString &host, const QString &engine,
                       const QDateTime &at, const QString &model = {})
{
    HistoryEvent e;
    e.kind = kind;
    e.host = host;
    e.engine = engine;
    e.at = at;
    e.model = model;
    return e;
}

// A second, independent connection to a store's file: what another process would see.
class RawDb
{
public:
    explicit RawDb(const QString &path)
        : m_name(u"raw-%1"_s.arg(++s_counter))
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(u"QSQLITE"_s, m_name);
        db.setDatabaseName(path);
        m_open = db.open();
    }
    ~RawDb()
    {
        QSqlDatabase::database(m_name, false).close();
        QSqlDatabase::removeDatabase(m_name);
    }
    bool isOpen() const { return m_open; }

    bool exec(const QString &sql) const
    {
        QSqlQuery q(QSqlDatabase::database(m_name, false));
        return q.exec(sql);
    }

    QVariant scalar(const QString &sql) const
    {
        QSqlQuery q(QSqlDatabase::database(m_name, false));
        if (!q.exec(sql) || !q.next()) {
            qWarning() << sql << q.lastError().text();
            return {};
        }
        return q.value(0);
    }

private:
    static inline int s_counter = 0;
    QString m_name;
    bool m_open = false;
};

inline QByteArray fileBytes(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

inline QList<RequestRecord> allRequests(HistoryStore &store)
{
    RequestQuery q;
    q.limit = 0;
    return store.requests(q);
}

} // namespace storetest

Q_DECLARE_METATYPE(QList<int>)
