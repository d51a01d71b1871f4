#pragma once

#include <QObject>

// Tests of the fake llama.cpp router (declared apart from the .cpp because moc
// trips over the raw string literals there).
class tst_FakeFailures final : public QObject
{
    Q_OBJECT

private slots:
    // Failure injection and control
    void failureModes_data();
    void failureModes();
    void closeDropsEverything();
    void singleModel();
    void controlEndpoints();
    void qnamStreaming();
    void executable();
};
