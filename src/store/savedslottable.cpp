#include "store/savedslottable.h"

#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

namespace switchyard {

using namespace Qt::StringLiterals;

namespace SavedSlotTable {

bool apply(QSqlDatabase &db, const QList<SavedSlotChange> &changes, QString *error)
{
    QSqlQuery upsert(db);
    QSqlQuery remove(db);
    if (!upsert.prepare(u"INSERT OR REPLACE INTO saved_slots (host, engine, model, slot, filename, tokens, bytes,"
                        " saved_at, took_ms, model_identity, pending) VALUES (COALESCE(:host, ''), COALESCE(:engine, ''),"
                        " COALESCE(:model, ''), :slot, COALESCE(:filename, ''), :tokens, :bytes, :saved_at, :took_ms,"
                        " COALESCE(:model_identity, ''), :pending)"_s)
        || !remove.prepare(u"DELETE FROM saved_slots WHERE host = COALESCE(:host, '') AND engine = COALESCE(:engine, '')"
                           " AND model = COALESCE(:model, '') AND slot = :slot"_s)) {
        *error = upsert.lastError().isValid() ? upsert.lastError().text() : remove.lastError().text();
        return false;
    }
    for (const SavedSlotChange &change : changes) {
        const SavedSlot &s = change.slot;
        QSqlQuery &q = change.forget ? remove : upsert;
        // Qt binds a null QString as NULL: COALESCE makes it '' for the NOT NULL columns.
        q.bindValue(u":host"_s, s.host);
        q.bindValue(u":engine"_s, s.engine);
        q.bindValue(u":model"_s, s.model);
        q.bindValue(u":slot"_s, s.slot);
        if (!change.forget) {
            q.bindValue(u":filename"_s, s.filename);
            q.bindValue(u":tokens"_s, s.tokens);
            q.bindValue(u":bytes"_s, s.bytes);
            q.bindValue(u":saved_at"_s, s.savedAt.toMSecsSinceEpoch());
            q.bindValue(u":took_ms"_s, qint64(s.took.count()));
            q.bindValue(u":model_identity"_s, s.modelIdentity);
            q.bindValue(u":pending"_s, s.pending ? 1 : 0);
        }
        if (!q.exec()) {
            *error = q.lastError().text();
            return false;
        }
    }
    return true;
}

QList<SavedSlot> read(QSqlDatabase &db, const QString &host, QString *error)
{
    QList<SavedSlot> out;
    QSqlQuery q(db);
    q.setForwardOnly(true);
    q.prepare(u"SELECT engine, model, slot, filename, tokens, bytes, saved_at, took_ms, model_identity, pending"
              " FROM saved_slots WHERE host = ? ORDER BY saved_at DESC"_s);
    q.addBindValue(host);
    if (!q.exec()) {
        *error = q.lastError().text();
        return out;
    }
    while (q.next()) {
        SavedSlot s;
        s.host = host;
        s.engine = q.value(0).toString();
        s.model = q.value(1).toString();
        s.slot = q.value(2).toInt();
        s.filename = q.value(3).toString();
        s.tokens = q.value(4).toLongLong();
        s.bytes = q.value(5).toLongLong();
        s.savedAt = QDateTime::fromMSecsSinceEpoch(q.value(6).toLongLong());
        s.took = std::chrono::milliseconds(q.value(7).toLongLong());
        s.modelIdentity = q.value(8).toString();
        s.pending = q.value(9).toInt() != 0;
        out.append(s);
    }
    return out;
}

} // namespace SavedSlotTable

} // namespace switchyard
