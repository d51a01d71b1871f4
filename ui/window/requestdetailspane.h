#pragma once

#include "journal/requestrecord.h"

#include <QHash>
#include <QWidget>

#include <optional>

class QGridLayout;
class QLabel;
class QScrollArea;

namespace switchyard {

// Everything known about one request, under the request log: what was asked, where it went,
// how it went, who asked, and the journal line.
class RequestDetailsPane final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RequestDetailsPane)

public:
    explicit RequestDetailsPane(QWidget *parent = nullptr);

    // live: where a request in flight is (its record so far); none for a finished one.
    void showRecord(const switchyard::RequestRecord &record, std::optional<switchyard::RequestPhase> live = {});
    void clear();
    QString fieldText(const QString &field) const;
    // The request as the journal writes it, under the fields (which scroll): always in view.
    QLabel *journalLabel() const { return m_journal; }

private:
    QLabel *addField(const QString &key, const QString &title, QGridLayout *grid, int row, int column);

    QLabel *m_heading;
    QLabel *m_placeholder;
    QScrollArea *m_fieldsScroll;
    QWidget *m_fields;
    QHash<QString, QLabel *> m_values;
    QLabel *m_journal;
};

} // namespace switchyard
