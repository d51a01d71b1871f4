#include "store/historyschema.h"

#include <QCoreApplication>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

#include <vector>

namespace switchyard {

using namespace Qt::StringLiterals;

namespace {

using Step = std::vector<const char *>;   // owns its array: an initializer_list here would dangle

// Never edit a step that has shipped; add a new one.
const std::vector<Step> &steps()
{
    static const std::vector<Step> all = {
        // 1: requests and host events. Times are milliseconds since the epoch (UTC).
        {
            "CREATE TABLE requests ("
            " id INTEGER PRIMARY KEY AUTOINCREMENT,"
            " started_at INTEGER NOT NULL,"
            " method TEXT NOT NULL DEFAULT '',"
            " path TEXT NOT NULL DEFAULT '',"
            " model TEXT NOT NULL DEFAULT '',"
            " host TEXT NOT NULL DEFAULT '',"
            " engine TEXT NOT NULL DEFAULT '',"
            " status INTEGER NOT NULL DEFAULT 0,"
            " bytes_out INTEGER NOT NULL DEFAULT 0,"
            " duration_ms REAL NOT NULL DEFAULT 0,"
            " ttfb_ms REAL,"
            " tokens INTEGER,"
            " tokens_per_s REAL,"
            " client TEXT NOT NULL DEFAULT '',"
            " user_agent TEXT NOT NULL DEFAULT '',"
            " relay_error TEXT NOT NULL DEFAULT '')",
            "CREATE INDEX requests_started_at ON requests(started_at)",
            // Host and model filters come with a time range; the pair serves both.
            "CREATE INDEX requests_host ON requests(host, started_at)",
            "CREATE INDEX requests_model ON requests(model, started_at)",
            "CREATE TABLE events ("
            " id INTEGER PRIMARY KEY AUTOINCREMENT,"
            " at INTEGER NOT NULL,"
            " kind TEXT NOT NULL,"
            " host TEXT NOT NULL DEFAULT '',"
            " engine TEXT NOT NULL DEFAULT '',"
            " model TEXT NOT NULL DEFAULT '',"
            " duration_ms REAL,"
            " detail TEXT NOT NULL DEFAULT '')",
            "CREATE INDEX events_at ON events(at)",
            "CREATE INDEX events_host ON events(host, at)",
        },
        // 2: what a request sent, and how long it waited before going upstream, and why.
        {
            "ALTER TABLE requests ADD COLUMN bytes_in INTEGER NOT NULL DEFAULT 0",
            "ALTER TABLE requests ADD COLUMN waited_ms REAL NOT NULL DEFAULT 0",
            "ALTER TABLE requests ADD COLUMN wait_reason TEXT NOT NULL DEFAULT ''",
        },
        // 3: usage per client key: the key's name (never the key) and the prompt's tokens.
        {
            "ALTER TABLE requests ADD COLUMN key_name TEXT NOT NULL DEFAULT ''",
            "ALTER TABLE requests ADD COLUMN tokens_in INTEGER",
        },
        // 4: the prompt tokens restored from a saved prompt cache just before a request went out.
        {
            "ALTER TABLE requests ADD COLUMN restored_tokens INTEGER NOT NULL DEFAULT 0",
        },
        // 5: the prompt-cache index: which slot of which model is saved in which file on the
        // box, so saves outlive a relay restart (not history: retention never prunes it).
        {
            "CREATE TABLE saved_slots ("
            " host TEXT NOT NULL,"
            " engine TEXT NOT NULL,"
            " model TEXT NOT NULL,"
            " slot INTEGER NOT NULL,"
            " filename TEXT NOT NULL,"
            " tokens INTEGER NOT NULL DEFAULT 0,"
            " bytes INTEGER NOT NULL DEFAULT 0,"
            " saved_at INTEGER NOT NULL,"
            " took_ms INTEGER NOT NULL DEFAULT 0,"
            " model_identity TEXT NOT NULL DEFAULT '',"
            " pending INTEGER NOT NULL DEFAULT 0,"
            " PRIMARY KEY (host, engine, model, slot))",
        },
        // 6: the facts behind a record's English words (issue 34), as JSON, so the window words
        // them in its own language: an event's detail (a failed switch's EngineFailure), a
        // request's relay error (the host's HostRefusal). Rows from before keep their text only.
        {
            "ALTER TABLE events ADD COLUMN facts TEXT NOT NULL DEFAULT ''",
            "ALTER TABLE requests ADD COLUMN relay_facts TEXT NOT NULL DEFAULT ''",
        },
        // 7: a client's side call (a title, a small-model call), which waits less for a switch
        // (issue 31): the switch simulator's export tells it from a turn.
        {
            "ALTER TABLE requests ADD COLUMN side_call INTEGER NOT NULL DEFAULT 0",
        },
    };
    return all;
}

bool exec(QSqlDatabase &db, const QString &sql, QString *error)
{
    QSqlQuery q(db);
    if (q.exec(sql))
        return true;
    *error = q.lastError().text() + u" ("_s + sql.left(60) + u')';
    return false;
}

} // namespace

namespace HistorySchema {

int currentVersion()
{
    return int(steps().size());
}

bool migrate(QSqlDatabase &db, QString *error)
{
    QSqlQuery q(db);
    if (!q.exec(u"PRAGMA user_version"_s) || !q.next()) {
        *error = q.lastError().text();
        return false;
    }
    const int version = q.value(0).toInt();
    q.finish();
    if (version > currentVersion()) {
        *error = QCoreApplication::translate("HistorySchema",
                                             "The history database has schema version %1; this "
                                             "version of Switchyard knows up to %2.")
                         .arg(version).arg(currentVersion());
        return false;
    }
    for (int v = version; v < currentVersion(); ++v) {
        if (!db.transaction()) {
            *error = db.lastError().text();
            return false;
        }
        bool ok = true;
        for (const char *sql : steps()[size_t(v)]) {
            ok = exec(db, QString::fromLatin1(sql), error);
            if (!ok)
                break;
        }
        ok = ok && exec(db, u"PRAGMA user_version = %1"_s.arg(v + 1), error);
        if (!ok || !db.commit()) {
            if (ok)
                *error = db.lastError().text();
            db.rollback();
            return false;
        }
    }
    return true;
}

} // namespace HistorySchema

} // namespace switchyard
