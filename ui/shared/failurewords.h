#pragma once

#include "engines/enginefailure.h"
#include "hosts/hostrefusal.h"

#include <QCoreApplication>
#include <QString>

namespace switchyard {

// The window's words for the facts the hosts and engines hand up, through tr(): the same
// HostRefusal and EngineFailure that the relay words in English for its clients (src/replies).
class FailureWords final
{
    Q_DECLARE_TR_FUNCTIONS(FailureWords)

public:
    static QString refusal(const HostRefusal &why);
    static QString engineFailure(const EngineFailure &failure);

    FailureWords() = delete;
};

} // namespace switchyard
