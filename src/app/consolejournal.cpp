#include "app/consolejournal.h"

#include "common/clock.h"
#include "journal/journalformat.h"

#include <QTimer>

namespace switchyard {

ConsoleJournal::ConsoleJournal(FILE *out, const Clock *clock, QObject *parent)
    : QObject(parent)
    , m_out(out)
    , m_clock(clock ? clock : &systemClock())
    , m_writer(new QObject)
    , m_delay(new QTimer(this))
{
    m_thread.setObjectName(QStringLiteral("journal"));
    m_delay->setSingleShot(true);
    m_delay->setInterval(FlushDelay);
    connect(m_delay, &QTimer::timeout, m_writer, [this] { flush(); });   // queued: runs on m_thread
    m_writer->moveToThread(&m_thread);
    m_thread.start();
}

ConsoleJournal::~ConsoleJournal()
{
    m_thread.quit();
    m_thread.wait();
    delete m_writer;
    flush();
}

void ConsoleJournal::request(const RequestRecord &record)
{
    enqueue({record, {}, {}});
}

void ConsoleJournal::event(const QString &text)
{
    enqueue({std::nullopt, text, m_clock->now()});
}

void ConsoleJournal::line(const QString &text)
{
    enqueue({std::nullopt, text, {}});
}

void ConsoleJournal::setSecrets(const QStringList &secrets)
{
    QMutexLocker locked(&m_queueMutex);
    m_secrets = secrets;
}

void ConsoleJournal::enqueue(Entry entry)
{
    bool first = false;
    {
        QMutexLocker locked(&m_queueMutex);
        first = m_queue.isEmpty();
        m_queue.append(std::move(entry));
    }
    // One wake-up of the writer per batch, not per line; lines from another thread start the
    // timer through our event loop.
    if (first)
        QMetaObject::invokeMethod(m_delay, qOverload<>(&QTimer::start), Qt::AutoConnection);
}

void ConsoleJournal::flush()
{
    QMutexLocker writing(&m_writeMutex);
    QList<Entry> batch;
    {
        QMutexLocker locked(&m_queueMutex);
        batch.swap(m_queue);
        if (m_secrets) {
            m_redactor.setSecrets(*m_secrets);
            m_secrets.reset();
        }
    }
    if (batch.isEmpty())
        return;
    QByteArray out;
    for (const Entry &e : std::as_const(batch)) {
        const QString text = e.record ? JournalFormat::requestLine(*e.record)
                             : e.when.isValid() ? JournalFormat::eventLine(e.when, e.text)
                                                : e.text;
        out += m_redactor.redact(text).toUtf8();
        out += '\n';
    }
    std::fwrite(out.constData(), 1, size_t(out.size()), m_out);
    std::fflush(m_out);
}

} // namespace switchyard
