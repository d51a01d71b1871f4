#pragma once

#include "store/savedslot.h"

#include <QList>
#include <QString>

class QSqlDatabase;

namespace switchyard {

// The SQL of the saved_slots table (schema step 5): the prompt-cache index. Runs on the
// history writer's connection, inside its transaction.
namespace SavedSlotTable {

bool apply(QSqlDatabase &db, const QList<SavedSlotChange> &changes, QString *error);
QList<SavedSlot> read(QSqlDatabase &db, const QString &host, QString *error);

} // namespace SavedSlotTable

} // namespace switchyard
