#pragma once

#include <QByteArray>
#include <QString>

namespace switchyard {

// The agent protocol's version and vocabulary (docs/HOSTS.md, "A team: many relays, one box").
// 1: the relay decides switches itself (/agent/switch, /agent/stop).
// 2: the agent arbitrates: every relay holds a place per request (/agent/hold), switches and
//    leases are decided on the box, and /agent/events tells every relay what the box does.
// A relay says its version in X-Switchyard-Protocol; an agent in /agent/status "protocol".
namespace BoxProtocol {
inline constexpr int Version = 2;
inline constexpr QByteArrayView Header = "x-switchyard-protocol";
inline constexpr QByteArrayView HoldPath = "/agent/hold";
inline constexpr QByteArrayView EventsPath = "/agent/events";
inline constexpr QByteArrayView LeasePath = "/agent/lease";
inline constexpr QByteArrayView LeaseReleasePath = "/agent/lease/release";
inline constexpr QByteArrayView Admit = "admit";     // data {"engine"}: the request may go
inline constexpr QByteArrayView Refuse = "refuse";   // data: a HostRefusal's facts; the hold ends
inline constexpr QByteArrayView Box = "box";         // data: the box as /agent/status "box" says
} // namespace BoxProtocol

// A request's place on a shared box as the relay asks for it.
struct BoxAsk
{
    QString engine;
    QString relay;    // which relay asks (its name: the window and the agent's log say it)
    QString model;    // the alias the client asked for
    QString modelKey; // the model's name on the engine: the agent restores its saved prompt caches
    QString app;      // the client app, when the relay recognised it
    bool command = false;   // a switch on command: admitted = the engine is up, then let go
    bool sideCall = false;  // a title or small-model call: the agent holds it less long
};

} // namespace switchyard
