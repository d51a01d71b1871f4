#pragma once

#include <QDateTime>
#include <QString>

namespace switchyard {

// A filter over the stored requests. Empty or invalid fields do not filter.
struct RequestQuery
{
    QDateTime since;             // started at or after
    QDateTime until;             // started before
    QString host;
    QString model;               // the alias as the client sent it
    int status = 0;              // 0: any; otherwise exactly this status
    bool errorsOnly = false;     // status >= 400 (combines with status)
    int limit = 1000;            // newest first; <= 0: no limit
    // >= 0: only rows stored after the one with this id, oldest first (a reader's cursor: ids
    // grow as rows are written, so paging by id misses none, however busy the relay).
    qint64 afterId = -1;
};

} // namespace switchyard
