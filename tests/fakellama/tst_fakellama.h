#pragma once

#include <QObject>

// Tests of the fake llama.cpp router (declared apart from the .cpp because moc
// trips over the raw string literals there).
class tst_FakeLlama final : public QObject
{
    Q_OBJECT

private slots:
    // Building blocks
    void jsonNumbers_data();
    void jsonNumbers();
    void jsonSyntax_data();
    void jsonSyntax();
    void promptEstimate_data();
    void promptEstimate();
    void parseOptions_data();
    void parseOptions();

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

    // Failure injection and control
    void failureModes_data();
    void failureModes();
    void closeDropsEverything();
    void singleModel();
    void controlEndpoints();
    void qnamStreaming();
    void executable();
};
