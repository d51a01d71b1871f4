#include "hosts/recordedfacts.h"

namespace switchyard {

using namespace Qt::StringLiterals;

namespace {
constexpr QLatin1StringView EngineFailureKey{"engine_failure"};
constexpr QLatin1StringView RefusalKey{"refusal"};
} // namespace

namespace RecordedFacts {

QJsonObject of(const EngineFailure &failure)
{
    return {{EngineFailureKey, failure.toJson()}};
}

QJsonObject of(const HostRefusal &refusal)
{
    return {{RefusalKey, refusal.toJson()}};
}

std::optional<EngineFailure> engineFailure(const QJsonObject &facts)
{
    const QJsonValue value = facts.value(EngineFailureKey);
    return value.isObject() ? std::optional(EngineFailure::fromJson(value.toObject())) : std::nullopt;
}

std::optional<HostRefusal> refusal(const QJsonObject &facts)
{
    const QJsonValue value = facts.value(RefusalKey);
    return value.isObject() ? std::optional(HostRefusal::fromJson(value.toObject())) : std::nullopt;
}

} // namespace RecordedFacts

} // namespace switchyard
