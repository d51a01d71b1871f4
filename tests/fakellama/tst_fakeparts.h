#pragma once

#include <QObject>

// Tests of the fake llama.cpp router (declared apart from the .cpp because moc
// trips over the raw string literals there).
class tst_FakeParts final : public QObject
{
    Q_OBJECT

private slots:
    // Building blocks
    void jsonSyntax_data();
    void jsonSyntax();
    void promptEstimate_data();
    void promptEstimate();
    void parseOptions_data();
    void parseOptions();

};
