#pragma once

#include <QString>

class QSqlDatabase;

namespace switchyard {

// The store's tables, migrated step by step on PRAGMA user_version: version N is the number of
// steps applied, each step runs in its own transaction together with its version bump.
namespace HistorySchema {

int currentVersion();

// Brings the database to currentVersion(). Refuses a database from a newer build rather than
// writing rows it would not understand.
bool migrate(QSqlDatabase &db, QString *error);

} // namespace HistorySchema

} // namespace switchyard
