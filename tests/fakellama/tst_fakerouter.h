#pragma once

#include <QObject>

// Tests of the fake llama.cpp router (declared apart from the .cpp because moc
// trips over the raw string literals there).
class tst_FakeRouter final : public QObject
{
    Q_OBJECT

private slots:
    // Router endpoints
    void health_data();
    void health();
    void keepAliveSequentialRequests();
    void unknownPath();
    void headRequest();
    void modelsList();
    void routerProps();
    void loadTransitions();
    void loadErrors_data();
    void loadErrors();
    void unloadAndErrors();
    void sseLoadEventsNoReplay();
    void failedLoad();
    void lruEviction();

};
