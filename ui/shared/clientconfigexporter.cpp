#include "shared/clientconfigexporter.h"

#include <QCoreApplication>
#include <QDir>
#include <QTemporaryFile>

namespace switchyard {

using namespace Qt::StringLiterals;

ClientConfigExporter::ClientConfigExporter(QObject *parent)
    : QObject(parent)
    , m_program(QCoreApplication::applicationFilePath())
{
}

ClientConfigExporter::~ClientConfigExporter() = default;

QList<ClientConfigExporter::Client> ClientConfigExporter::clients()
{
    return {
        {u"opencode"_s, tr("opencode")},
        {u"claude-code"_s, tr("Claude Code")},
        {u"pi"_s, tr("pi")},
        {u"codex"_s, tr("Codex")},
        {u"cline"_s, tr("Cline")},
        {u"qwen"_s, tr("Qwen Code")},
    };
}

QStringList ClientConfigExporter::arguments(const QString &client, const QUrl &endpoint)
{
    // The export asks this relay for its models (GET /v1/models), wherever it listens now.
    QStringList args{u"export"_s, client};
    if (endpoint.isValid())
        args << u"--base-url"_s << endpoint.toString();
    return args;
}

bool ClientConfigExporter::isRunning() const
{
    return m_process && m_process->state() != QProcess::NotRunning;
}

void ClientConfigExporter::start(const QString &client, const QStringList &extra)
{
    if (isRunning())
        return;
    auto *process = new QProcess(this);
    m_process = process;
    connect(process, &QProcess::finished, this, [this, process, client](int code, QProcess::ExitStatus status) {
        process->deleteLater();
        const bool ok = status == QProcess::NormalExit && code == 0;
        const QString out = QString::fromUtf8(process->readAllStandardOutput());
        const QString err = QString::fromUtf8(process->readAllStandardError()).trimmed();
        emit finished(client, ok, ok ? out : (err.isEmpty() ? tr("export exited with code %1").arg(code) : err));
    });
    connect(process, &QProcess::errorOccurred, this, [this, process, client](QProcess::ProcessError error) {
        if (error != QProcess::FailedToStart)
            return;
        process->deleteLater();
        emit finished(client, false, tr("cannot run %1: %2").arg(m_program, process->errorString()));
    });
    if (!m_apiKey.isEmpty()) {
        // In the environment, not on the command line, where any local user could read it.
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(u"SWITCHYARD_API_KEY"_s, m_apiKey);
        process->setProcessEnvironment(env);
    }
    QStringList args = arguments(client, m_endpoint);
    m_listFile.reset();
    if (!m_modelList.isEmpty()) {
        m_listFile = std::make_unique<QTemporaryFile>(QDir::tempPath() + u"/switchyard-models-XXXXXX.json"_s);
        if (!m_listFile->open() || m_listFile->write(m_modelList) != m_modelList.size() || !m_listFile->flush()) {
            process->deleteLater();
            emit finished(client, false, tr("cannot write the model list for the export: %1").arg(m_listFile->errorString()));
            return;
        }
        args << u"--list"_s << m_listFile->fileName();
    }
    process->start(m_program, args + extra);
}

} // namespace switchyard
