#pragma once

#include "engines/enginefailure.h"
#include "hosts/hostrefusal.h"

#include <QJsonObject>

#include <optional>

namespace switchyard {

// The facts behind a record's English words, kept beside them in the history (a failed switch's
// detail, a refused request's relay error) so that the window words them in its own language
// rather than recognising English sentences. One key says which facts they are:
// {"engine_failure": EngineFailure::toJson()} or {"refusal": HostRefusal::toJson()}, the same
// JSON the agent protocol carries.
namespace RecordedFacts {

QJsonObject of(const EngineFailure &failure);
QJsonObject of(const HostRefusal &refusal);
// Empty when the facts are of another kind (or none: a row stored before they were kept).
std::optional<EngineFailure> engineFailure(const QJsonObject &facts);
std::optional<HostRefusal> refusal(const QJsonObject &facts);

} // namespace RecordedFacts

} // namespace switchyard
