#pragma once

#include <QObject>
#include <QPointer>
#include <QProcess>
#include <QUrl>

#include <memory>

class QTemporaryFile;

namespace switchyard {

// "Export client config" in the tray and the window: runs `switchyard export CLIENT` (the
// same code path as on the command line) as a child process, so whatever the export does,
// talking to this very relay included, it cannot block the event loop the relay runs on.
class ClientConfigExporter final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ClientConfigExporter)

public:
    struct Client
    {
        QString id;      // the export command's name for it
        QString title;   // for menus
    };

    explicit ClientConfigExporter(QObject *parent = nullptr);
    ~ClientConfigExporter() override;

    static QList<Client> clients();
    // The export command's arguments for a client of the relay at endpoint.
    static QStringList arguments(const QString &client, const QUrl &endpoint);

    void setProgram(const QString &program) { m_program = program; }
    void setEndpoint(const QUrl &endpoint) { m_endpoint = endpoint; }
    // A client key for a relay that wants one (the export lists its models).
    void setApiKey(const QString &key) { m_apiKey = key; }
    // The relay's model list (its /v1/models answer) when it is known here: the export reads it
    // (--list) instead of asking the relay, which may want a client key this window has not (a
    // relay watched with its admin token). Empty: the export asks the relay.
    void setModelList(const QByteArray &json) { m_modelList = json; }
    QByteArray modelList() const { return m_modelList; }
    // extra: more options for the export command (--model, --shell, --merge FILE).
    void start(const QString &client, const QStringList &extra = {});
    bool isRunning() const;

Q_SIGNALS:
    // ok: exit code 0; text: what it printed (the config), or its error output.
    void finished(const QString &client, bool ok, const QString &text);

private:
    QString m_program;
    QUrl m_endpoint;
    QString m_apiKey;
    QByteArray m_modelList;
    std::unique_ptr<QTemporaryFile> m_listFile;   // m_modelList for the running export
    QPointer<QProcess> m_process;
};

} // namespace switchyard
