#pragma once

#include "journal/requestrecord.h"
#include "store/redactor.h"

#include <QObject>

#include <cstdio>

namespace switchyard {

// The journal on stdout: one line per request and per host event, in the seeds' format, written
// and flushed line by line so a systemd journal or a pipe sees each as it happens.
class ConsoleJournal final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ConsoleJournal)

public:
    explicit ConsoleJournal(FILE *out = stdout, QObject *parent = nullptr);

    void request(const switchyard::RequestRecord &record);
    void event(const QString &text);
    void line(const QString &text);

    // Lines are redacted like the history store's (configured secrets, bearer tokens, key=value).
    void setSecrets(const QStringList &secrets) { m_redactor.setSecrets(secrets); }

private:
    FILE *m_out;
    Redactor m_redactor;
};

} // namespace switchyard
