#pragma once

#include <QObject>

// Tests of the fake llama.cpp router (declared apart from the .cpp because moc
// trips over the raw string literals there).
class tst_FakeModelRequests final : public QObject
{
    Q_OBJECT

private slots:
    // Requests for a model
    void streamingChatFraming();
    void streamingUsageChunk();
    void nonStreamingChat();
    void slotApi();
    void messagesStream();
    void otherApis_data();
    void otherApis();
    void countTokens();
    void childProps();
    void autoloadHoldsSilently();
    void autoloadOff_data();
    void autoloadOff();
    void modelErrors_data();
    void modelErrors();
    void contextOverflow_data();
    void contextOverflow();
    void lateSystemMessage_data();
    void lateSystemMessage();
    void prefillPings();
    void clientCancelStopsGeneration();
    void unloadCutsRunningStream();

};
