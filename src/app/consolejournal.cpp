#include "app/consolejournal.h"

#include "journal/journalformat.h"

#include <QDateTime>

namespace switchyard {

ConsoleJournal::ConsoleJournal(FILE *out, QObject *parent)
    : QObject(parent)
    , m_out(out)
{
}

void ConsoleJournal::request(const RequestRecord &record)
{
    line(JournalFormat::requestLine(record));
}

void ConsoleJournal::event(const QString &text)
{
    line(JournalFormat::eventLine(QDateTime::currentDateTime(), text));
}

void ConsoleJournal::line(const QString &text)
{
    const QByteArray bytes = m_redactor.redact(text).toUtf8() + '\n';
    std::fwrite(bytes.constData(), 1, size_t(bytes.size()), m_out);
    std::fflush(m_out);
}

} // namespace switchyard
