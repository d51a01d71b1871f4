#pragma once

#include <QJsonObject>
#include <QObject>
#include <QProcess>
#include <QStringList>

namespace switchyard {

// The demo fleet's simulated boxes run in a process of their own, switchyard-demo-fleet (its
// protocol: src/fakellama/demo/demofleetchannel.h): this starts it, reads the fleet's description
// from its first line, sends it commands and hands on its events. The product's executable links
// no fake. The helper ends when this closes its stdin, or when this process dies.
class DemoFleetProcess final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DemoFleetProcess)

public:
    static constexpr QLatin1StringView HelperName{"switchyard-demo-fleet"};

    // Where the helper is: next to this executable (the build tree), else in libexec/switchyard/
    // relative to it (an installed package). Empty when in neither; *lookedAt names both paths.
    static QString findHelper(QStringList *lookedAt);

    DemoFleetProcess(QString program, QStringList arguments, QObject *parent = nullptr);
    ~DemoFleetProcess() override;

    // Starts the helper and waits (up to 20 s) for its description: {"event":"fleet",...}.
    bool start(QJsonObject *description, QString *error);
    // One command: {"host":...,"do":"start"|"stop"|"probe","engine":...}.
    void send(const QJsonObject &command);

Q_SIGNALS:
    void eventReceived(const QJsonObject &event);

private:
    // The complete lines read so far; a partial one stays in m_partial.
    QList<QByteArray> takeLines();
    void readEvents();
    void forwardErrors();

    QString m_program;
    QStringList m_arguments;
    QProcess m_process;
    QByteArray m_partial;
    bool m_described = false;
    bool m_stopping = false;
};

} // namespace switchyard
