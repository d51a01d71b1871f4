#pragma once

#include <QList>
#include <QObject>
#include <QUrl>

class QNetworkAccessManager;
class QNetworkReply;

namespace switchyard {

// Client traffic for a demo or a screenshot run: streaming chat completions, loads and the odd
// mistake, sent to the relay's endpoint over HTTP like any client. Several network managers,
// because one opens at most six connections to a host.
class TrafficGenerator final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TrafficGenerator)

public:
    explicit TrafficGenerator(const QUrl &endpoint, QObject *parent = nullptr);
    ~TrafficGenerator() override;

    // One streaming chat completion of about maxTokens tokens.
    void chat(const QString &alias, int maxTokens, const QString &userAgent = {});
    // A plain (non-streaming) chat completion: the request log shows both kinds.
    void complete(const QString &alias, int maxTokens, const QString &userAgent = {});
    void load(const QString &alias);
    void unload(const QString &alias);
    void get(const QString &path);

    int running() const { return int(m_running.size()); }
    int finished() const { return m_finished; }
    void abortAll();

Q_SIGNALS:
    void requestFinished(int status);

private:
    QNetworkAccessManager *nextManager();
    void track(QNetworkReply *reply);
    void post(const QString &path, const QByteArray &body, const QString &userAgent);

    QUrl m_endpoint;
    QList<QNetworkAccessManager *> m_managers;
    int m_next = 0;
    QList<QNetworkReply *> m_running;
    int m_finished = 0;
};

} // namespace switchyard
