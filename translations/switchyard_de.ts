<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>AdminClient</name>
    <message>
        <location filename="../src/cli/adminclient.cpp" line="+22"/>
        <source>the connection was refused: is the relay running?</source>
        <translation>die Verbindung wurde abgelehnt: Läuft das Relay?</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the relay&apos;s host name does not resolve</source>
        <translation>der Hostname des Relays lässt sich nicht auflösen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the relay closed the connection without answering</source>
        <translation>das Relay hat die Verbindung ohne Antwort geschlossen</translation>
    </message>
    <message>
        <location line="+40"/>
        <source>no answer within %1 s</source>
        <translation>keine Antwort innerhalb von %1 s</translation>
    </message>
</context>
<context>
    <name>Autostart</name>
    <message>
        <location filename="../ui/tray/autostart.cpp" line="+84"/>
        <source>cannot remove %1</source>
        <translation>%1 lässt sich nicht entfernen</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>cannot create the folder %1</source>
        <translation>der Ordner %1 lässt sich nicht anlegen</translation>
    </message>
    <message>
        <location line="+5"/>
        <location line="+5"/>
        <source>cannot write %1: %2</source>
        <translation>%1 lässt sich nicht schreiben: %2</translation>
    </message>
</context>
<context>
    <name>CheckConfig</name>
    <message>
        <location filename="../src/cli/agentcommand.cpp" line="+78"/>
        <location filename="../src/config/checkconfig.cpp" line="+19"/>
        <source>warning: %1</source>
        <translation>Warnung: %1</translation>
    </message>
    <message>
        <location filename="../src/config/checkconfig.cpp" line="+28"/>
        <source>%1: ok (agent, %2)</source>
        <translation>%1: in Ordnung (Agent, %2)</translation>
    </message>
    <message numerus="yes">
        <location line="+18"/>
        <source>%n host</source>
        <translation>
            <numerusform>%n Host</numerusform>
            <numerusform>%n Hosts</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>%n hosts</source>
        <translation>
            <numerusform>%n Host</numerusform>
            <numerusform>%n Hosts</numerusform>
        </translation>
    </message>
    <message>
        <location line="+10"/>
        <source>  host %1: requests in arrival order</source>
        <translation>  Host %1: Anfragen in Ankunftsreihenfolge</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>  host %1: requests batched by engine (dwell %2 s, max wait %3 s, side calls %4 s)</source>
        <translation>  Host %1: Anfragen nach Engine gebündelt (Nachlauf %2 s, höchstens %3 s Wartezeit, Nebenanfragen %4 s)</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>  host %1: prompt caches kept in %2 (at most %3 MB)</source>
        <translation>  Host %1: Prompt-Caches werden in %2 aufbewahrt (höchstens %3 MB)</translation>
    </message>
    <message>
        <source>  host %1: requests batched by engine (dwell %2 s, max wait %3 s)</source>
        <translation type="vanished">  Host %1: Anfragen nach Engine gebündelt (Nachlauf %2 s, höchstens %3 s Wartezeit)</translation>
    </message>
    <message numerus="yes">
        <location line="-55"/>
        <source>%n engine</source>
        <translation>
            <numerusform>%n Engine</numerusform>
            <numerusform>%n Engines</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>%n engines</source>
        <translation>
            <numerusform>%n Engine</numerusform>
            <numerusform>%n Engines</numerusform>
        </translation>
    </message>
    <message>
        <location line="+35"/>
        <source>%1: ok (%2, %3)</source>
        <translation>%1: in Ordnung (%2, %3)</translation>
    </message>
</context>
<context>
    <name>CommandLine</name>
    <message>
        <location filename="../src/app/commandline.cpp" line="+11"/>
        <source>Usage: switchyard [options]
       switchyard check-config FILE

One endpoint on the LAN in front of several llama.cpp GPU boxes.

Options:
  --config FILE           read hosts and settings from FILE (JSON, see docs/CONFIG.md)
  --listen HOST:PORT      address to serve on (default 127.0.0.1:18766)
  --upstream NAME=URL     a static host, without a config file (repeatable)
  --demo                  start three simulated hosts and relay in front of them
  --headless              no window (also the default when there is no display)
  --tray                  start with only a tray icon
  --data-dir DIR          where the history store lives
  --version               print the version
  -h, --help              this text

Commands:
  check-config FILE       validate a config file; says what is wrong and where, exits 1 if anything is
  agent --config FILE     run on a GPU box: supervise its engines and answer the relay
  export opencode|claude-code|pi [options]
                          print a client config that points at this relay (see export --help)
  log [--follow] [--host H] [--model M]
                          print request history in the journal format
  lease HOST --owner NAME -- COMMAND...
                          take a host&apos;s GPU from the relay while COMMAND runs
  usage [--since 7d] [--by key|client|alias|host]
                          print requests, tokens, GPU time and switches per client key
</source>
        <translation>Aufruf: switchyard [Optionen]
        switchyard check-config DATEI

Ein Endpunkt im LAN vor mehreren llama.cpp-GPU-Rechnern.

Optionen:
  --config DATEI          Hosts und Einstellungen aus DATEI lesen (JSON, siehe docs/CONFIG.md)
  --listen HOST:PORT      Adresse, auf der gelauscht wird (Vorgabe 127.0.0.1:18766)
  --upstream NAME=URL     ein statischer Host, ohne Konfigurationsdatei (wiederholbar)
  --demo                  drei simulierte Hosts starten und davor vermitteln
  --headless              kein Fenster (auch die Vorgabe, wenn es keine Anzeige gibt)
  --tray                  nur mit einem Symbol in der Systemleiste starten
  --data-dir ORDNER       wo der Verlauf gespeichert wird
  --version               die Version ausgeben
  -h, --help              dieser Text

Befehle:
  check-config DATEI      eine Konfigurationsdatei prüfen; sagt, was wo falsch ist, und endet mit 1, wenn etwas falsch ist
  agent --config DATEI    auf einem GPU-Rechner laufen: dessen Engines überwachen und dem Relay antworten
  export opencode|claude-code|pi [Optionen]
                          eine Client-Konfiguration ausgeben, die auf dieses Relay zeigt (siehe export --help)
  log [--follow] [--host H] [--model M]
                          den Anfrageverlauf im Journalformat ausgeben
  lease HOST --owner NAME -- BEFEHL...
                          die GPU eines Hosts dem Relay abnehmen, solange BEFEHL läuft
  usage [--since 7d] [--by key|client|alias|host]
                          Anfragen, Tokens, GPU-Zeit und Wechsel je Client-Schlüssel ausgeben
</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>Usage: switchyard check-config FILE

Validates a relay&apos;s or an agent&apos;s config file without starting anything. Prints every
problem with its file, line and field path and exits 1 if there is one; otherwise prints
&quot;FILE: ok&quot; with the number of hosts and engines and exits 0.
</source>
        <translation>Aufruf: switchyard check-config DATEI

Prüft die Konfigurationsdatei eines Relays oder eines Agenten, ohne etwas zu starten. Gibt jedes
Problem mit Datei, Zeile und Feldpfad aus und endet mit 1, wenn es eines gibt; sonst gibt es
&quot;DATEI: in Ordnung&quot; mit der Zahl der Hosts und Engines aus und endet mit 0.
</translation>
    </message>
    <message>
        <source>Usage: switchyard [options]
       switchyard check-config FILE

One endpoint on the LAN in front of several llama.cpp GPU boxes.

Options:
  --config FILE           read hosts and settings from FILE (JSON, see docs/CONFIG.md)
  --listen HOST:PORT      address to serve on (default 127.0.0.1:18766)
  --upstream NAME=URL     a static host, without a config file (repeatable)
  --demo                  start three simulated hosts and relay in front of them
  --headless              no window (also the default when there is no display)
  --tray                  start with only a tray icon
  --data-dir DIR          where the history store lives
  --version               print the version
  -h, --help              this text

Commands:
  check-config FILE       validate a config file; says what is wrong and where, exits 1 if anything is
  agent --config FILE     run on a GPU box: supervise its engines and answer the relay
  export opencode|claude-code|pi [options]
                          print a client config that points at this relay (see export --help)
  log [--follow] [--host H] [--model M]
                          print request history in the journal format
  lease HOST --owner NAME -- COMMAND...
                          take a host&apos;s GPU from the relay while COMMAND runs
</source>
        <translation type="vanished">Aufruf: switchyard [Optionen]
        switchyard check-config DATEI

Ein Endpunkt im LAN vor mehreren llama.cpp-GPU-Rechnern.

Optionen:
  --config DATEI          Hosts und Einstellungen aus DATEI lesen (JSON, siehe docs/CONFIG.md)
  --listen HOST:PORT      Adresse, auf der gelauscht wird (Vorgabe 127.0.0.1:18766)
  --upstream NAME=URL     ein statischer Host, ohne Konfigurationsdatei (wiederholbar)
  --demo                  drei simulierte Hosts starten und davor vermitteln
  --headless              kein Fenster (auch die Vorgabe, wenn es keine Anzeige gibt)
  --tray                  nur mit einem Symbol in der Systemleiste starten
  --data-dir ORDNER       wo der Verlauf gespeichert wird
  --version               die Version ausgeben
  -h, --help              dieser Text

Befehle:
  check-config DATEI      eine Konfigurationsdatei prüfen; sagt, was wo falsch ist, und endet mit 1, wenn etwas falsch ist
  agent --config DATEI    auf einem GPU-Rechner laufen: dessen Engines überwachen und dem Relay antworten
  export opencode|claude-code|pi [Optionen]
                          eine Client-Konfiguration ausgeben, die auf dieses Relay zeigt (siehe export --help)
  log [--follow] [--host H] [--model M]
                          den Anfrageverlauf im Journalformat ausgeben
  lease HOST --owner NAME -- BEFEHL...
                          die GPU eines Hosts dem Relay abnehmen, solange BEFEHL läuft
</translation>
    </message>
</context>
<context>
    <name>ConfigError</name>
    <message>
        <location filename="../src/config/config.cpp" line="+22"/>
        <source>line %1, column %2</source>
        <translation>Zeile %1, Spalte %2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>line %1</source>
        <translation>Zeile %1</translation>
    </message>
</context>
<context>
    <name>ConfigLoader</name>
    <message>
        <location filename="../src/config/fieldreader.cpp" line="+23"/>
        <source>expected an object, got %1</source>
        <translation>ein Objekt erwartet, aber %1 erhalten</translation>
    </message>
    <message>
        <location filename="../src/config/relayconfigreader.cpp" line="+62"/>
        <source>host fields go inside &quot;hosts&quot;: {&quot;NAME&quot;: {...}}</source>
        <translation>Host-Felder gehören in &quot;hosts&quot;: {&quot;NAME&quot;: {...}}</translation>
    </message>
    <message>
        <location filename="../src/config/agentconfigreader.cpp" line="+32"/>
        <source>this is an agent&apos;s file: it lists the box&apos;s own engines, not hosts</source>
        <translation>das ist die Datei eines Agenten: sie führt die Engines des Rechners selbst auf, keine Hosts</translation>
    </message>
    <message>
        <location filename="../src/config/accessconfigreader.cpp" line="+199"/>
        <location filename="../src/config/fieldreader.cpp" line="+185"/>
        <source>must not be empty (leave the field out for no token)</source>
        <translation>darf nicht leer sein (für kein Token das Feld weglassen)</translation>
    </message>
    <message>
        <location filename="../src/config/agentconfigreader.cpp" line="+77"/>
        <source>no engines configured; an agent needs at least one</source>
        <translation>keine Engines konfiguriert; ein Agent braucht mindestens eine</translation>
    </message>
    <message>
        <location filename="../src/config/accessconfigreader.cpp" line="-136"/>
        <location line="+68"/>
        <location line="+69"/>
        <location filename="../src/config/engineurl.cpp" line="+28"/>
        <location filename="../src/config/hostconfigreader.cpp" line="+463"/>
        <source>must not be empty</source>
        <translation>darf nicht leer sein</translation>
    </message>
    <message>
        <location filename="../src/config/engineurl.cpp" line="+5"/>
        <source>not a valid URL: &quot;%1&quot;</source>
        <translation>keine gültige URL: &quot;%1&quot;</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>the URL has no host: &quot;%1&quot;</source>
        <translation>die URL hat keinen Host: &quot;%1&quot;</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>the URL must not have a query or fragment: &quot;%1&quot;</source>
        <translation>die URL darf keine Abfrage und kein Fragment haben: &quot;%1&quot;</translation>
    </message>
    <message>
        <location filename="../src/config/fieldreader.cpp" line="+19"/>
        <source>null</source>
        <translation>null</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>true or false</source>
        <translation>true oder false</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a number</source>
        <translation>eine Zahl</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a string</source>
        <translation>eine Zeichenkette</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>an array</source>
        <translation>ein Array</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>an object</source>
        <translation>ein Objekt</translation>
    </message>
    <message>
        <location line="-126"/>
        <source>expected %1, got %2</source>
        <translation>%1 erwartet, aber %2 erhalten</translation>
    </message>
    <message>
        <location line="-58"/>
        <source>duplicate key (first on line %1)</source>
        <translation>doppelter Schlüssel (zuerst in Zeile %1)</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>unknown field (did you mean &quot;%1&quot;?)</source>
        <translation>unbekanntes Feld (war &quot;%1&quot; gemeint?)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>unknown field here (%1)</source>
        <translation>unbekanntes Feld an dieser Stelle (%1)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>unknown field (known fields: %1)</source>
        <translation>unbekanntes Feld (bekannte Felder: %1)</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>required field missing</source>
        <translation>Pflichtfeld fehlt</translation>
    </message>
    <message>
        <location line="+51"/>
        <location filename="../src/config/relayconfigreader.cpp" line="+150"/>
        <source>must be greater than 0</source>
        <translation>muss größer als 0 sein</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>must be at most %1 (a day)</source>
        <translation>darf höchstens %1 sein (ein Tag)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>must be at least 0.001</source>
        <translation>muss mindestens 0.001 sein</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>must not be empty (leave the field out for the default)</source>
        <translation>darf nicht leer sein (für die Vorgabe das Feld weglassen)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>must be an absolute path (or start with &quot;~/&quot;), got &quot;%1&quot;</source>
        <translation>muss ein absoluter Pfad sein (oder mit &quot;~/&quot; beginnen), aber &quot;%1&quot; erhalten</translation>
    </message>
    <message>
        <location filename="../src/config/confignames.cpp" line="+25"/>
        <source>invalid host name &quot;%1&quot;: use only letters, digits, &apos;.&apos; and &apos;_&apos; (no &apos;-&apos;: clients name models &quot;&lt;host&gt;-&lt;model&gt;&quot;)</source>
        <translation>ungültiger Hostname &quot;%1&quot;: nur Buchstaben, Ziffern, &apos;.&apos; und &apos;_&apos; verwenden (kein &apos;-&apos;: Clients nennen Modelle &quot;&lt;host&gt;-&lt;model&gt;&quot;)</translation>
    </message>
    <message>
        <location filename="../src/config/hostconfigreader.cpp" line="-403"/>
        <source>no hosts configured; add at least one</source>
        <translation>keine Hosts konfiguriert; mindestens einen hinzufügen</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>engine fields go inside &quot;engines&quot;: {&quot;NAME&quot;: {...}}</source>
        <translation>Engine-Felder gehören in &quot;engines&quot;: {&quot;NAME&quot;: {...}}</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>unknown driver &quot;%1&quot; (expected static, local, agent or command)</source>
        <translation>unbekannter Treiber &quot;%1&quot; (erwartet: static, local, agent oder command)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>unknown driver &quot;%1&quot; (did you mean &quot;%2&quot;?)</source>
        <translation>unbekannter Treiber &quot;%1&quot; (war &quot;%2&quot; gemeint?)</translation>
    </message>
    <message>
        <location line="+13"/>
        <location line="+1"/>
        <source>only used with driver &quot;agent&quot;</source>
        <translation>wird nur mit dem Treiber &quot;agent&quot; verwendet</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>not used with driver &quot;static&quot;: its engines are never switched</source>
        <translation>wird mit dem Treiber &quot;static&quot; nicht verwendet: dessen Engines werden nie gewechselt</translation>
    </message>
    <message>
        <location filename="../src/config/confignames.cpp" line="+6"/>
        <source>invalid engine name &quot;%1&quot;: use only letters, digits, &apos;.&apos;, &apos;_&apos; and &apos;-&apos;</source>
        <translation>ungültiger Engine-Name &quot;%1&quot;: nur Buchstaben, Ziffern, &apos;.&apos;, &apos;_&apos; und &apos;-&apos; verwenden</translation>
    </message>
    <message>
        <location filename="../src/config/hostconfigreader.cpp" line="+278"/>
        <source>model &quot;%1&quot; is also listed by engine %2, which comes first and serves it</source>
        <translation>Modell &quot;%1&quot; steht auch bei Engine %2, die zuerst kommt und es bedient</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>no engines configured; a host needs at least one</source>
        <translation>keine Engines konfiguriert; ein Host braucht mindestens eine</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>model keys must not be empty or start or end with spaces</source>
        <translation>Modellschlüssel dürfen nicht leer sein und nicht mit Leerzeichen beginnen oder enden</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>model &quot;%1&quot; is listed twice</source>
        <translation>Modell &quot;%1&quot; steht zweimal in der Liste</translation>
    </message>
    <message>
        <location filename="../src/config/fieldreader.cpp" line="+23"/>
        <location filename="../src/config/hostconfigreader.cpp" line="-148"/>
        <source>must not be empty: give the program and its arguments</source>
        <translation>darf nicht leer sein: das Programm und seine Argumente angeben</translation>
    </message>
    <message>
        <location filename="../src/config/relayconfigreader.cpp" line="-140"/>
        <source>&quot;%1&quot; is reachable from other machines: add &quot;lan&quot;: true to serve the LAN (and set clients.api_keys; see docs/SECURITY.md), or listen on 127.0.0.1</source>
        <translation>„%1“ ist von anderen Rechnern aus erreichbar: „lan“: true setzen, um im LAN zu dienen (und clients.api_keys setzen; siehe docs/SECURITY.md), oder auf 127.0.0.1 lauschen</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>no client keys (clients.api_keys): anyone on the LAN can use every model</source>
        <translation>keine Client-Schlüssel (clients.api_keys): Jeder im LAN kann jedes Modell nutzen</translation>
    </message>
    <message>
        <location filename="../src/config/secretreader.cpp" line="+25"/>
        <source>&quot;%1&quot; is not a regular file of at most 1 MiB</source>
        <translation>„%1“ ist keine reguläre Datei von höchstens 1 MiB</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>cannot read &quot;%1&quot;: %2</source>
        <translation>„%1“ kann nicht gelesen werden: %2</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>expected the name of an environment variable, got &quot;%1&quot;</source>
        <translation>erwartet wurde der Name einer Umgebungsvariable, nicht „%1“</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>the environment variable %1 is not set or empty</source>
        <translation>die Umgebungsvariable %1 ist nicht gesetzt oder leer</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>%1: a key must be printable ASCII without spaces</source>
        <translation>%1: Ein Schlüssel muss aus druckbarem ASCII ohne Leerzeichen bestehen</translation>
    </message>
    <message>
        <location filename="../src/config/accessconfigreader.cpp" line="-146"/>
        <source>must not be empty (leave the field out for no keys)</source>
        <translation>darf nicht leer sein (das Feld weglassen für keine Schlüssel)</translation>
    </message>
    <message>
        <location line="+10"/>
        <location line="+139"/>
        <source>this key</source>
        <translation>dieser Schlüssel</translation>
    </message>
    <message>
        <location line="-125"/>
        <source>line %1 of the file</source>
        <translation>Zeile %1 der Datei</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&quot;%1&quot; holds no keys (one per line)</source>
        <translation>„%1“ enthält keine Schlüssel (einer pro Zeile)</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>the variable %1</source>
        <translation>die Variable %1</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>the name &quot;%1&quot; is already used by %2</source>
        <translation>der Name &quot;%1&quot; wird schon von %2 verwendet</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>the same key as %1</source>
        <translation>derselbe Schlüssel wie %1</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>invalid key name &quot;%1&quot;: use at most 64 letters, digits, &apos;.&apos;, &apos;_&apos; and &apos;-&apos;</source>
        <translation>ungültiger Schlüsselname &quot;%1&quot;: höchstens 64 Buchstaben, Ziffern, &apos;.&apos;, &apos;_&apos; und &apos;-&apos; verwenden</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>needs one of key, key_file and key_env</source>
        <translation>braucht eines von key, key_file und key_env</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>use one of token, token_file and token_env</source>
        <translation>genau eines von token, token_file und token_env verwenden</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>use one of key, key_file and key_env</source>
        <translation>nur eines von key, key_file und key_env verwenden</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>&quot;%1&quot; must hold the token alone, on one line</source>
        <translation>„%1“ darf nur das Token enthalten, in einer Zeile</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&quot;%1&quot; must hold the key alone, on one line</source>
        <translation>&quot;%1&quot; darf nur den Schlüssel enthalten, in einer Zeile</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>the token</source>
        <translation>das Token</translation>
    </message>
    <message>
        <location filename="../src/config/agentconfigreader.cpp" line="-61"/>
        <source>required when listening on %1: without it anyone who can reach the agent can switch and stop this box&apos;s engines (or listen on 127.0.0.1)</source>
        <translation>nötig beim Lauschen auf %1: Ohne es kann jeder, der den Agenten erreicht, die Engines dieses Rechners wechseln und stoppen (oder auf 127.0.0.1 lauschen)</translation>
    </message>
    <message>
        <location filename="../src/config/engineurl.cpp" line="-13"/>
        <source>https:// is not supported for engines and agents (the relay speaks plain HTTP to them): use http://, or terminate TLS on the box, got &quot;%1&quot;</source>
        <translation>https:// wird für Engines und Agenten nicht unterstützt (das Relay spricht einfaches HTTP mit ihnen): http:// verwenden oder TLS auf dem Rechner beenden, erhalten: „%1“</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>expected an http:// URL, got &quot;%1&quot;</source>
        <translation>erwartet wurde eine http://-URL, erhalten: „%1“</translation>
    </message>
    <message>
        <location filename="../src/config/fieldreader.cpp" line="+2"/>
        <source>the program must not be empty</source>
        <translation>das Programm darf nicht leer sein</translation>
    </message>
    <message>
        <location filename="../src/config/hostconfigreader.cpp" line="-166"/>
        <source>not used with driver &quot;static&quot;: its engines are never stopped</source>
        <translation>nicht mit Treiber &quot;static&quot; verwendet: seine Engines werden nie gestoppt</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>must not be empty (leave the field out for no key)</source>
        <translation>darf nicht leer sein (das Feld weglassen für keinen Schlüssel)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the key</source>
        <translation>der Schlüssel</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>unknown policy &quot;%1&quot; (expected batch or arrival)</source>
        <translation>unbekannte Strategie &quot;%1&quot; (erwartet: batch oder arrival)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>unknown policy &quot;%1&quot; (did you mean &quot;%2&quot;?)</source>
        <translation>unbekannte Strategie &quot;%1&quot; (war &quot;%2&quot; gemeint?)</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>must be 0 or more and at most %1 (a day)</source>
        <translation>muss mindestens 0 und darf höchstens %1 sein (ein Tag)</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>not used with policy &quot;arrival&quot;</source>
        <translation>wird mit der Strategie &quot;arrival&quot; nicht verwendet</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>prompt caches are off: the engines save into different folders (%1, %2); set prompt_cache.dir to one of them</source>
        <translation>Prompt-Caches sind aus: die Engines speichern in verschiedene Ordner (%1, %2); prompt_cache.dir auf einen davon setzen</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>prompt caches are off: the relay cannot give engines started by commands a folder; add %1 DIR to each start command and set prompt_cache.dir to DIR (or &quot;prompt_cache&quot;: false to say so)</source>
        <translation>Prompt-Caches sind aus: Das Relay kann Engines, die Befehle starten, keinen Ordner geben; %1 ORDNER zu jedem Startbefehl hinzufügen und prompt_cache.dir auf ORDNER setzen (oder &quot;prompt_cache&quot;: false, um das so zu wollen)</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>must be between 1 and 1000000000</source>
        <translation>muss zwischen 1 und 1000000000 liegen</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>%1 &quot;%2&quot; is not prompt_cache.dir &quot;%3&quot; (leave it out: the relay adds it)</source>
        <translation>%1 &quot;%2&quot; ist nicht prompt_cache.dir &quot;%3&quot; (weglassen: das Relay fügt es hinzu)</translation>
    </message>
    <message>
        <location line="+46"/>
        <location line="+1"/>
        <location line="+147"/>
        <source>not used with driver &quot;static&quot;: its engine is never stopped</source>
        <translation>bei Treiber &quot;static&quot; nicht verwendet: seine Engine wird nie gestoppt</translation>
    </message>
    <message>
        <location line="-166"/>
        <source>never run: neither the host nor an engine has idle_stop_after_s</source>
        <translation>läuft nie: weder der Host noch eine Engine hat idle_stop_after_s</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>decided by the box&apos;s agent, which sees every relay&apos;s requests: set it in the agent&apos;s config (this relay uses it only with an agent of protocol 1)</source>
        <translation>entscheidet der Agent der Box, der die Anfragen aller Relays sieht: Setzen Sie es in der Konfiguration des Agenten (dieses Relay nutzt es nur mit einem Agenten des Protokolls 1)</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>not used with driver &quot;local&quot;: its engines run on this machine, which is awake</source>
        <translation>bei Treiber &quot;local&quot; nicht verwendet: seine Engines laufen auf diesem Rechner, und der ist wach</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>&quot;%1&quot; is not a MAC address (six pairs of hex digits, e.g. 3c:7c:3f:1e:22:0a)</source>
        <translation>&quot;%1&quot; ist keine MAC-Adresse (sechs Paare Hexziffern, z. B. 3c:7c:3f:1e:22:0a)</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>&quot;%1&quot; is not an IPv4 address (the LAN&apos;s broadcast address, e.g. 192.168.1.255)</source>
        <translation>&quot;%1&quot; ist keine IPv4-Adresse (die Broadcast-Adresse des LANs, z. B. 192.168.1.255)</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>must be a whole number from 1 to 65535</source>
        <translation>muss eine ganze Zahl von 1 bis 65535 sein</translation>
    </message>
    <message>
        <location line="+90"/>
        <source>only used with drivers &quot;local&quot; and &quot;agent&quot;</source>
        <translation>wird nur mit den Treibern &quot;local&quot; und &quot;agent&quot; verwendet</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>not used with driver &quot;static&quot;: its engines are never started or stopped</source>
        <translation>wird mit dem Treiber &quot;static&quot; nicht verwendet: dessen Engines werden nie gestartet oder gestoppt</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>only used with driver &quot;command&quot;</source>
        <translation>wird nur mit dem Treiber &quot;command&quot; verwendet</translation>
    </message>
    <message>
        <location filename="../src/config/relayconfigreader.cpp" line="+21"/>
        <source>a pattern must not be empty or contain spaces or control characters</source>
        <translation>ein Muster darf nicht leer sein und keine Leer- oder Steuerzeichen enthalten</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>must not be empty: name at least one &quot;&lt;host&gt;-&lt;model&gt;&quot;</source>
        <translation>darf nicht leer sein: mindestens ein „&lt;host&gt;-&lt;model&gt;“ angeben</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>&quot;%1&quot; is listed twice</source>
        <translation>„%1“ steht zweimal in der Liste</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>the replicas serve different models (%1): a request may get either</source>
        <translation>die Replikate bedienen verschiedene Modelle (%1): eine Anfrage kann jedes davon bekommen</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>the target must be one model alias, not a pattern: &quot;%1&quot;</source>
        <translation>das Ziel muss ein einzelner Modell-Alias sein, kein Muster: &quot;%1&quot;</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>target &quot;%1&quot; is not a model of a configured host (expected &quot;&lt;host&gt;-&lt;model&gt;&quot;, e.g. &quot;%2&quot;)</source>
        <translation>Ziel &quot;%1&quot; ist kein Modell eines konfigurierten Hosts (erwartet &quot;&lt;host&gt;-&lt;model&gt;&quot;, z. B. &quot;%2&quot;)</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>no engine of host %1 lists model &quot;%2&quot;</source>
        <translation>keine Engine von Host %1 führt das Modell &quot;%2&quot;</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>clients on Node&apos;s fetch give up after %1 s without a response; keep this below that</source>
        <translation>Clients mit Nodes fetch geben nach %1 s ohne Antwort auf; diesen Wert darunter halten</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>must be at most %1</source>
        <translation>darf höchstens %1 sein</translation>
    </message>
    <message>
        <location filename="../src/config/configloader.cpp" line="+43"/>
        <source>the file is empty</source>
        <translation>die Datei ist leer</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>JSON syntax error: %1</source>
        <translation>JSON-Syntaxfehler: %1</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>cannot read the config file: %1</source>
        <translation>die Konfigurationsdatei lässt sich nicht lesen: %1</translation>
    </message>
    <message>
        <location line="+50"/>
        <source>no upstreams; give at least one --upstream NAME=URL</source>
        <translation>keine Upstreams; mindestens ein --upstream NAME=URL angeben</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>expected NAME=URL, got &quot;%1&quot;</source>
        <translation>NAME=URL erwartet, aber &quot;%1&quot; erhalten</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>host &quot;%1&quot; is given twice</source>
        <translation>Host &quot;%1&quot; ist zweimal angegeben</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>expected HOST:PORT, e.g. &quot;127.0.0.1:18766&quot;, &quot;0.0.0.0:18766&quot; or &quot;[::1]:18766&quot;</source>
        <translation>HOST:PORT erwartet, z. B. &quot;127.0.0.1:18766&quot;, &quot;0.0.0.0:18766&quot; oder &quot;[::1]:18766&quot;</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>an IPv6 address needs brackets, e.g. &quot;[::1]:18766&quot;</source>
        <translation>eine IPv6-Adresse braucht eckige Klammern, z. B. &quot;[::1]:18766&quot;</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>invalid port &quot;%1&quot; (expected a number from 0 to 65535)</source>
        <translation>ungültiger Port &quot;%1&quot; (erwartet eine Zahl von 0 bis 65535)</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>&quot;%1&quot; is not an IP address (host names are not looked up; use 0.0.0.0 for all interfaces)</source>
        <translation>&quot;%1&quot; ist keine IP-Adresse (Hostnamen werden nicht aufgelöst; 0.0.0.0 für alle Schnittstellen verwenden)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>brackets are for IPv6 addresses: &quot;%1&quot;</source>
        <translation>eckige Klammern sind für IPv6-Adressen: &quot;%1&quot;</translation>
    </message>
    <message>
        <location filename="../src/config/configwriter.cpp" line="+130"/>
        <location filename="../src/config/hostseditormodel.cpp" line="+119"/>
        <source>the file is not a JSON object</source>
        <translation>die Datei ist kein JSON-Objekt</translation>
    </message>
    <message>
        <location line="+1"/>
        <location filename="../src/config/hostseditormodel.cpp" line="+1"/>
        <source>the file is not valid JSON: %1</source>
        <translation>die Datei ist kein gültiges JSON: %1</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>hosts: must be an object</source>
        <translation>hosts: muss ein Objekt sein</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>hosts.%1: a host of that name is already in the file</source>
        <translation>hosts.%1: ein Host dieses Namens steht schon in der Datei</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>cannot create the folder %1</source>
        <translation>der Ordner %1 lässt sich nicht anlegen</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>cannot keep the previous file as %1</source>
        <translation>die bisherige Datei lässt sich nicht als %1 aufbewahren</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>cannot write %1: %2</source>
        <translation>%1 lässt sich nicht schreiben: %2</translation>
    </message>
    <message>
        <location filename="../src/config/configdiff.cpp" line="+21"/>
        <source>(not shown)</source>
        <translation>(nicht gezeigt)</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>%1: removed</source>
        <translation>%1: entfernt</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1: added</source>
        <translation>%1: hinzugefügt</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>%1: changed (not shown)</source>
        <translation>%1: geändert (nicht gezeigt)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1: %2 → %3</source>
        <translation>%1: %2 → %3</translation>
    </message>
</context>
<context>
    <name>DemoEngineDriver</name>
    <message>
        <location filename="../ui/demo/demoenginedriver.cpp" line="+25"/>
        <source>the demo has no engine %1</source>
        <translation>die Demo hat keine Engine %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>its loopback port is taken</source>
        <translation>sein Loopback-Port ist belegt</translation>
    </message>
    <message>
        <location line="-4"/>
        <source>the box is asleep</source>
        <translation>der Rechner schläft</translation>
    </message>
</context>
<context>
    <name>DemoFleet</name>
    <message>
        <source>simulated host %1 cannot listen on loopback</source>
        <translation type="vanished">der simulierte Host %1 kann nicht auf Loopback lauschen</translation>
    </message>
    <message>
        <location filename="../ui/demo/demofleetprocess.cpp" line="+62"/>
        <source>%1 did not start: %2</source>
        <translation>%1 ist nicht gestartet: %2</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1 did not describe its hosts: %2</source>
        <translation>%1 hat seine Hosts nicht beschrieben: %2</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1 did not describe its hosts</source>
        <translation>%1 hat seine Hosts nicht beschrieben</translation>
    </message>
</context>
<context>
    <name>EngineStateFile</name>
    <message>
        <source>cannot create the state folder %1</source>
        <translation type="vanished">der Zustandsordner %1 lässt sich nicht anlegen</translation>
    </message>
    <message>
        <source>another supervisor (%1, pid %2) uses %3</source>
        <translation type="vanished">ein anderer Supervisor (%1, PID %2) verwendet %3</translation>
    </message>
    <message>
        <source>cannot lock %1</source>
        <translation type="vanished">%1 lässt sich nicht sperren</translation>
    </message>
</context>
<context>
    <name>FailureWords</name>
    <message>
        <location filename="../ui/shared/failurewords.cpp" line="+16"/>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>killed by signal %1</source>
        <translation>wurde durch Signal %1 beendet</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>exited with code %1</source>
        <translation>endete mit Code %1</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>it cannot be opened</source>
        <translation>sie lässt sich nicht öffnen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>writing it failed</source>
        <translation>das Schreiben ist fehlgeschlagen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>permission denied</source>
        <translation>keine Berechtigung</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>out of resources (is the disk full?)</source>
        <translation>keine Ressourcen mehr (ist die Festplatte voll?)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>it cannot be replaced</source>
        <translation>sie lässt sich nicht ersetzen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>file error %1</source>
        <translation>Dateifehler %1</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>no engine called %1 (engines: %2)</source>
        <translation>keine Engine namens %1 (Engines: %2)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no engine called %1 on host %2</source>
        <translation>keine Engine namens %1 auf Host %2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>host %1 is static: it runs engine %2 and never switches</source>
        <translation>Host %1 ist statisch: er betreibt Engine %2 und wechselt nie</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>cannot create the folder of the state file %1</source>
        <translation>der Ordner der Zustandsdatei %1 lässt sich nicht anlegen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>another supervisor (%1, pid %2) uses the state file %3</source>
        <translation>ein anderer Supervisor (%1, PID %2) verwendet die Zustandsdatei %3</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>cannot lock the state file %1</source>
        <translation>die Zustandsdatei %1 lässt sich nicht sperren</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>cannot write the state file %1: %2</source>
        <translation>die Zustandsdatei %1 lässt sich nicht schreiben: %2</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>the supervisor could not take its state file %1</source>
        <translation>der Supervisor konnte seine Zustandsdatei %1 nicht übernehmen</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 already answers /health: a server Switchyard did not start is running there</source>
        <translation>%1 antwortet bereits auf /health: dort läuft ein Server, den Switchyard nicht gestartet hat</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>no argv: nothing to start</source>
        <translation>kein argv: nichts zu starten</translation>
    </message>
    <message>
        <source>cannot run /bin/sh: %1</source>
        <translation type="vanished">/bin/sh lässt sich nicht ausführen: %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>no such file</source>
        <translation>keine solche Datei</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>it is not executable</source>
        <translation>sie ist nicht ausführbar</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the system could not run it</source>
        <translation>das System konnte sie nicht ausführen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>cannot run %1: %2</source>
        <translation>%1 lässt sich nicht ausführen: %2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>cannot start %1: %2</source>
        <translation>%1 lässt sich nicht starten: %2</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>ended</source>
        <translation>beendet</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the start command %1</source>
        <translation>der Startbefehl %1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>no /health within %1 of the start command</source>
        <translation>kein /health innerhalb von %1 nach dem Startbefehl</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no /health within %1</source>
        <translation>kein /health innerhalb von %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source> (last try: %1)</source>
        <translation> (letzter Versuch: %1)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>; last output: %1</source>
        <translation>; letzte Ausgabe: %1</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>engine %1 of host %2 still answers /health %3 after its stop command</source>
        <translation>Engine %1 von Host %2 antwortet %3 nach ihrem Stoppbefehl noch auf /health</translation>
    </message>
    <message>
        <location line="+3"/>
        <source> (which %1)</source>
        <translation> (der %1)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>superseded by a switch to engine %1</source>
        <translation>abgelöst durch einen Wechsel zu Engine %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>stopped before it was ready</source>
        <translation>gestoppt, bevor sie bereit war</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>host %1: no engine can be reached: %2</source>
        <translation>Host %1: keine Engine ist erreichbar: %2</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>%1 is leased by %2 until %3</source>
        <translation>%1 ist von %2 reserviert bis %3</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the engine did not start</source>
        <translation>die Engine ist nicht gestartet</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 runs one static engine and cannot switch</source>
        <translation>%1 betreibt eine statische Engine und kann nicht wechseln</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 has no engine %2 (its engines: %3)</source>
        <translation>%1 hat keine Engine %2 (seine Engines: %3)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the lease on %1 was taken by %2 before it was granted</source>
        <translation>die Reservierung von %1 wurde von %2 übernommen, bevor sie erteilt wurde</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the lease on %1 was released before it was granted</source>
        <translation>die Reservierung von %1 wurde aufgehoben, bevor sie erteilt wurde</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 did not wake within %2</source>
        <translation>%1 ist nicht innerhalb von %2 aufgewacht</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>switching host %1 to engine %2 failed: %3</source>
        <translation>Umschalten von Host %1 auf Engine %2 fehlgeschlagen: %3</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>no answer within %1</source>
        <translation>keine Antwort innerhalb von %1</translation>
    </message>
</context>
<context>
    <name>HistorySchema</name>
    <message>
        <location filename="../src/store/historyschema.cpp" line="+134"/>
        <source>The history database has schema version %1; this version of Switchyard knows up to %2.</source>
        <translation>Die Verlaufsdatenbank hat die Schemaversion %1; diese Version von Switchyard kennt nur bis %2.</translation>
    </message>
</context>
<context>
    <name>HostSummary</name>
    <message numerus="yes">
        <location filename="../ui/models/hostsummary.cpp" line="+33"/>
        <source>%n up</source>
        <translation>
            <numerusform>%n erreichbar</numerusform>
            <numerusform>%n erreichbar</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n asleep</source>
        <translation>
            <numerusform>%n schläft</numerusform>
            <numerusform>%n schlafen</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n waking</source>
        <translation>
            <numerusform>%n wird geweckt</numerusform>
            <numerusform>%n werden geweckt</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <location line="+12"/>
        <location line="+10"/>
        <source>%n leased</source>
        <translation>
            <numerusform>%n reserviert</numerusform>
            <numerusform>%n reserviert</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="-20"/>
        <source>%n down</source>
        <translation>
            <numerusform>%n nicht erreichbar</numerusform>
            <numerusform>%n nicht erreichbar</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+8"/>
        <source>%1 of %n host(s) up</source>
        <translation>
            <numerusform>%1 von %n Host erreichbar</numerusform>
            <numerusform>%1 von %n Hosts erreichbar</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+10"/>
        <source>%1 of %n up</source>
        <translation>
            <numerusform>%1 von %n erreichbar</numerusform>
            <numerusform>%1 von %n erreichbar</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>HostsEditorUrls</name>
    <message>
        <location filename="../ui/dialogs/hostseditorurls.cpp" line="+93"/>
        <source>the engine &quot;%1&quot; of this host already has this address: enter another</source>
        <translation>die Engine &quot;%1&quot; dieses Hosts hat diese Adresse schon: geben Sie eine andere ein</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the host &quot;%1&quot; already has this address (its engine &quot;%2&quot;): edit that host instead, or enter another address</source>
        <translation>der Host &quot;%1&quot; hat diese Adresse schon (seine Engine &quot;%2&quot;): bearbeiten Sie stattdessen diesen Host oder geben Sie eine andere Adresse ein</translation>
    </message>
</context>
<context>
    <name>RecordWords</name>
    <message>
        <location filename="../ui/shared/recordwords.cpp" line="+41"/>
        <source>the engine refused the connection</source>
        <translation>die Engine hat die Verbindung abgelehnt</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the engine&apos;s host name does not resolve</source>
        <translation>der Hostname der Engine lässt sich nicht auflösen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>no connection within %1 s</source>
        <translation>keine Verbindung innerhalb von %1 s</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the engine sent nothing for %1 s</source>
        <translation>die Engine hat %1 s lang nichts gesendet</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>unreachable</source>
        <translation>nicht erreichbar</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>its model list (GET /models) answered with an error</source>
        <translation>seine Modellliste (GET /models) antwortete mit einem Fehler</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>client closed the connection</source>
        <translation>der Client hat die Verbindung geschlossen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>host %1 is down: %2</source>
        <translation>Host %1 ist nicht erreichbar: %2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the engine is unreachable: %1</source>
        <translation>die Engine ist nicht erreichbar: %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>upstream stopped answering: %1</source>
        <translation>die Engine antwortet nicht mehr: %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>upstream failed before answering: %1</source>
        <translation>die Engine ist vor ihrer Antwort gescheitert: %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>upstream stream broke off: %1</source>
        <translation>der Stream der Engine ist abgebrochen: %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the engine could not load the model: %1</source>
        <translation>die Engine konnte das Modell nicht laden: %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the engine failed to answer this request (its reason is in the relay&apos;s journal)</source>
        <translation>die Engine konnte diese Anfrage nicht beantworten (der Grund steht im Journal des Relays)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the engine failed to answer this request: %1</source>
        <translation>die Engine konnte diese Anfrage nicht beantworten: %1</translation>
    </message>
    <message>
        <source>switching host %1 to engine %2 failed: %3</source>
        <translation type="vanished">der Wechsel von Host %1 zu Engine %2 ist gescheitert: %3</translation>
    </message>
    <message>
        <source>host %1 did not wake: no answer within %2 s</source>
        <translation type="vanished">Host %1 ist nicht aufgewacht: keine Antwort innerhalb von %2 s</translation>
    </message>
    <message>
        <source>host %1 runs one static engine and cannot switch</source>
        <translation type="vanished">Host %1 betreibt eine feste Engine und kann nicht wechseln</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>model &apos;%1&apos; not found; known models: %2</source>
        <translation>Modell &apos;%1&apos; nicht gefunden; bekannte Modelle: %2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>invalid API key</source>
        <translation>ungültiger API-Schlüssel</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>rewrote upstream %1: %2</source>
        <translation>Antwort %1 der Engine umgeschrieben: %2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>upstream answered %1 after the early 200</source>
        <translation>die Engine antwortete %1 nach dem frühen 200</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the engine&apos;s error event went out as a 424</source>
        <translation>das Fehlerereignis der Engine ging als 424 hinaus</translation>
    </message>
</context>
<context>
    <name>StartupConfig</name>
    <message>
        <source>no GPU boxes to serve: no config file is set and no --upstream is given. Start with --config FILE (docs/CONFIG.md; `switchyard check-config FILE` checks one), --upstream NAME=URL for one box, or --demo for a simulated fleet</source>
        <translation type="vanished">keine GPU-Rechner zu bedienen: keine Konfigurationsdatei gesetzt und kein --upstream angegeben. Starten Sie mit --config DATEI (docs/CONFIG.md; `switchyard check-config DATEI` prüft eine), --upstream NAME=URL für einen Rechner oder --demo für eine simulierte Flotte</translation>
    </message>
    <message>
        <location filename="../src/app/startupconfig.cpp" line="+69"/>
        <source>no GPU boxes to serve: no config file is set, there is none at %1, and no --upstream is given. Start with --config FILE (docs/CONFIG.md; `switchyard check-config FILE` checks one), --upstream NAME=URL for one box, or --demo for a simulated fleet</source>
        <translation>keine GPU-Rechner zu bedienen: keine Konfigurationsdatei gesetzt, keine unter %1 vorhanden und kein --upstream angegeben. Starten Sie mit --config DATEI (docs/CONFIG.md; `switchyard check-config DATEI` prüft eine), --upstream NAME=URL für einen Rechner oder --demo für eine simulierte Flotte</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>the listen address in the settings</source>
        <translation>die Adresse des Relays in den Einstellungen</translation>
    </message>
</context>
<context>
    <name>TimelineText</name>
    <message>
        <location filename="../ui/timeline/timelinetext.cpp" line="+45"/>
        <source>%1 – now (%2)</source>
        <translation>%1 – jetzt (%2)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 – %2 (%3)</source>
        <translation>%1 – %2 (%3)</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Engine &lt;b&gt;%1&lt;/b&gt; up on %2&lt;br&gt;%3</source>
        <translation>Engine &lt;b&gt;%1&lt;/b&gt; läuft auf %2&lt;br&gt;%3</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Switching to &lt;b&gt;%1&lt;/b&gt;</source>
        <translation>Wechsel zu &lt;b&gt;%1&lt;/b&gt;</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Switching to &lt;b&gt;%1&lt;/b&gt; for %2</source>
        <translation>Wechsel zu &lt;b&gt;%1&lt;/b&gt; für %2</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Switch to &lt;b&gt;%1&lt;/b&gt; failed: %2</source>
        <translation>Wechsel zu &lt;b&gt;%1&lt;/b&gt; fehlgeschlagen: %2</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&lt;b&gt;%1&lt;/b&gt; was down</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; war nicht erreichbar</translation>
    </message>
    <message>
        <source>Leased by &lt;b&gt;%1&lt;/b&gt;</source>
        <translation type="vanished">Reserviert von &lt;b&gt;%1&lt;/b&gt;</translation>
    </message>
    <message>
        <location line="-41"/>
        <source>last %1</source>
        <translation>letzte %1</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>&lt;b&gt;%1&lt;/b&gt; until %2</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; bis %2</translation>
    </message>
    <message>
        <location line="+40"/>
        <source>someone</source>
        <translation>jemandem</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Leased by %1</source>
        <translation>Reserviert von %1</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>&lt;b&gt;%1&lt;/b&gt; loaded</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; geladen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&lt;b&gt;%1&lt;/b&gt; failed over</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; auf ein anderes Replikat umgeleitet</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>prompt cache of &lt;b&gt;%1&lt;/b&gt; saved (engine %2)</source>
        <translation>Prompt-Cache von &lt;b&gt;%1&lt;/b&gt; gespeichert (Engine %2)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>prompt cache of &lt;b&gt;%1&lt;/b&gt; restored (engine %2)</source>
        <translation>Prompt-Cache von &lt;b&gt;%1&lt;/b&gt; wiederhergestellt (Engine %2)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&lt;b&gt;waking&lt;/b&gt;: wake-on-LAN sent</source>
        <translation>&lt;b&gt;wird geweckt&lt;/b&gt;: Wake-on-LAN gesendet</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&lt;b&gt;awake&lt;/b&gt;</source>
        <translation>&lt;b&gt;wach&lt;/b&gt;</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&lt;b&gt;did not wake&lt;/b&gt;</source>
        <translation>&lt;b&gt;nicht aufgewacht&lt;/b&gt;</translation>
    </message>
    <message>
        <location line="-6"/>
        <source>&lt;b&gt;waking&lt;/b&gt; for a request for &lt;b&gt;%1&lt;/b&gt;: wake-on-LAN sent</source>
        <translation>&lt;b&gt;wird geweckt&lt;/b&gt; für eine Anfrage an &lt;b&gt;%1&lt;/b&gt;: Wake-on-LAN gesendet</translation>
    </message>
    <message>
        <location line="-24"/>
        <source>&lt;b&gt;%1&lt;/b&gt; is asleep</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; schläft</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>&lt;b&gt;%1&lt;/b&gt; was asleep</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; schlief</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Switchyard is not running</source>
        <translation>Switchyard läuft nicht</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Switchyard was not running</source>
        <translation>Switchyard lief nicht</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>&lt;b&gt;awake&lt;/b&gt;, woken for a request for &lt;b&gt;%1&lt;/b&gt;</source>
        <translation>&lt;b&gt;wach&lt;/b&gt;, geweckt für eine Anfrage an &lt;b&gt;%1&lt;/b&gt;</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&lt;b&gt;did not wake&lt;/b&gt; for a request for &lt;b&gt;%1&lt;/b&gt;</source>
        <translation>&lt;b&gt;nicht aufgewacht&lt;/b&gt; für eine Anfrage an &lt;b&gt;%1&lt;/b&gt;</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>engine %1 &lt;b&gt;stopped&lt;/b&gt;: idle</source>
        <translation>Engine %1 &lt;b&gt;gestoppt&lt;/b&gt;: untätig</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&lt;b&gt;asleep&lt;/b&gt;: sleep command ran</source>
        <translation>&lt;b&gt;schläft&lt;/b&gt;: Schlafbefehl ausgeführt</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&lt;b&gt;%1&lt;/b&gt; unloaded</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; entladen</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>took %1</source>
        <translation>dauerte %1</translation>
    </message>
    <message numerus="yes">
        <location line="+13"/>
        <source>%n request(s) active</source>
        <translation>
            <numerusform>%n Anfrage aktiv</numerusform>
            <numerusform>%n Anfragen aktiv</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n failed</source>
        <translation>
            <numerusform>%n fehlgeschlagen</numerusform>
            <numerusform>%n fehlgeschlagen</numerusform>
        </translation>
    </message>
    <message>
        <location line="+8"/>
        <location line="+15"/>
        <source>→ %1</source>
        <translation>→ %1</translation>
    </message>
    <message>
        <location line="-14"/>
        <source>→ %1 · %2</source>
        <translation>→ %1 · %2</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>asleep</source>
        <translation>schläft</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>waking</source>
        <translation>wird geweckt</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>stopping %1</source>
        <translation>%1 wird beendet</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 → %2</source>
        <translation>%1 → %2</translation>
    </message>
</context>
<context>
    <name>TlsCredentials</name>
    <message>
        <source>&quot;%1&quot; is not a regular file of at most 1 MiB</source>
        <translation type="vanished">„%1“ ist keine reguläre Datei von höchstens 1 MiB</translation>
    </message>
    <message>
        <source>cannot read &quot;%1&quot;: %2</source>
        <translation type="vanished">„%1“ kann nicht gelesen werden: %2</translation>
    </message>
    <message>
        <source>&quot;%1&quot; holds no PEM certificate</source>
        <translation type="vanished">„%1“ enthält kein PEM-Zertifikat</translation>
    </message>
    <message>
        <source>&quot;%1&quot; holds no unencrypted PEM private key (RSA, EC or DSA)</source>
        <translation type="vanished">„%1“ enthält keinen unverschlüsselten PEM-Privatschlüssel (RSA, EC oder DSA)</translation>
    </message>
</context>
<context>
    <name>TrayState</name>
    <message>
        <location filename="../ui/tray/traystate.cpp" line="+35"/>
        <source>idle</source>
        <translation>untätig</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>relaying</source>
        <translation>vermittelt</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>switching engines</source>
        <translation>wechselt Engines</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a host is down</source>
        <translation>ein Host ist nicht erreichbar</translation>
    </message>
</context>
<context>
    <name>UiFormat</name>
    <message>
        <location filename="../ui/shared/uiformat.cpp" line="+13"/>
        <source>never</source>
        <translation>nie</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>just now</source>
        <translation>gerade eben</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 s ago</source>
        <translation>vor %1 s</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 min ago</source>
        <translation>vor %1 min</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 h ago</source>
        <translation>vor %1 h</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+11"/>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <location line="-8"/>
        <location line="+12"/>
        <source>%1 min %2 s</source>
        <translation>%1 min %2 s</translation>
    </message>
    <message>
        <location line="-11"/>
        <location line="+10"/>
        <source>%1 h %2 min</source>
        <translation>%1 h %2 min</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>%1 h</source>
        <translation>%1 h</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 min</source>
        <translation>%1 min</translation>
    </message>
</context>
<context>
    <name>export</name>
    <message numerus="yes">
        <source>wrote %1 (provider &quot;%2&quot;, %n model(s))</source>
        <translation type="vanished">
            <numerusform>%1 geschrieben (Provider &quot;%2&quot;, %n Modell)</numerusform>
            <numerusform>%1 geschrieben (Provider &quot;%2&quot;, %n Modelle)</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../src/export/relaymodel.cpp" line="+51"/>
        <source>the model list is not a JSON object with a &quot;data&quot; array</source>
        <translation>die Modellliste ist kein JSON-Objekt mit einem &quot;data&quot;-Array</translation>
    </message>
    <message>
        <location filename="../src/export/orderedjson.cpp" line="+103"/>
        <source>%1:%2: not valid JSON (%3); nothing was changed</source>
        <translation>%1:%2: kein gültiges JSON (%3); nichts wurde geändert</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1:%2: expected a JSON object at the top; nothing was changed</source>
        <translation>%1:%2: oben ein JSON-Objekt erwartet; nichts wurde geändert</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>%1:%2: &quot;%3&quot; is not an object; nothing was changed</source>
        <translation>%1:%2: &quot;%3&quot; ist kein Objekt; nichts wurde geändert</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>--screenshots needs a folder</source>
        <translation type="vanished">--screenshots braucht einen Ordner</translation>
    </message>
    <message>
        <location filename="../ui/desktop/desktopfrontend.cpp" line="+56"/>
        <location line="+168"/>
        <source>Switchyard</source>
        <translation>Switchyard</translation>
    </message>
    <message>
        <location line="-167"/>
        <source>The relay cannot start with this config.</source>
        <translation>Das Relay kann mit dieser Konfiguration nicht starten.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Open Settings…</source>
        <translation>Einstellungen öffnen …</translation>
    </message>
    <message>
        <location line="+59"/>
        <source>switchyard: already running, without a window (it has no display)</source>
        <translation>switchyard: läuft bereits, ohne Fenster (es gibt keine Anzeige)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>switchyard: the running instance keeps its own config; %1 not applied (quit it first to start with them)</source>
        <translation>switchyard: die laufende Instanz behält ihre eigene Konfiguration; %1 nicht übernommen (beende sie zuerst, um damit zu starten)</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>a second launch found this relay; it has no window to show (no display)</source>
        <translation>ein zweiter Start hat dieses Relay gefunden; es hat kein Fenster zum Zeigen (keine Anzeige)</translation>
    </message>
    <message>
        <location filename="../src/app/relayrun.cpp" line="+67"/>
        <source>switchyard: cannot start the demo fleet: %1</source>
        <translation>switchyard: die Demo-Flotte lässt sich nicht starten: %1</translation>
    </message>
    <message>
        <location filename="../ui/desktop/desktopfrontend.cpp" line="-22"/>
        <source>switchyard: already running; brought its window up</source>
        <translation>switchyard: läuft bereits; dessen Fenster wurde nach vorn geholt</translation>
    </message>
    <message>
        <location filename="../src/app/relayrun.cpp" line="+38"/>
        <source>switchyard: cannot create the data folder %1</source>
        <translation>switchyard: der Datenordner %1 lässt sich nicht anlegen</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>switchyard: cannot open the history store: %1</source>
        <translation>switchyard: der Verlaufsspeicher lässt sich nicht öffnen: %1</translation>
    </message>
    <message numerus="yes">
        <location line="+24"/>
        <source>switchyard %1 listening on %2 (%n host(s))</source>
        <translation>
            <numerusform>switchyard %1 lauscht auf %2 (%n Host)</numerusform>
            <numerusform>switchyard %1 lauscht auf %2 (%n Hosts)</numerusform>
        </translation>
    </message>
    <message>
        <source>switchyard %1 listening on %2 (%3 hosts)</source>
        <translation type="vanished">switchyard %1 lauscht auf %2 (%3 Hosts)</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>demo fleet: point clients at %1/v1 (models: curl %1/v1/models)</source>
        <translation>Demo-Flotte: Clients auf %1/v1 richten (Modelle: curl %1/v1/models)</translation>
    </message>
    <message>
        <location filename="../ui/desktop/desktopfrontend.cpp" line="+26"/>
        <location line="+108"/>
        <source>switchyard: a second launch will not find this one: %1</source>
        <translation>switchyard: ein zweiter Start wird diese Instanz nicht finden: %1</translation>
    </message>
    <message>
        <location line="-81"/>
        <source>its simulated hosts run in %1, which is in none of these places: %2</source>
        <translation>seine simulierten Hosts laufen in %1, das an keinem dieser Orte liegt: %2</translation>
    </message>
    <message>
        <location line="+84"/>
        <source>a second launch brought the window up</source>
        <translation>ein zweiter Start hat das Fenster nach vorn geholt</translation>
    </message>
    <message>
        <source>--screenshots runs with --demo</source>
        <translation type="vanished">--screenshots läuft nur mit --demo</translation>
    </message>
    <message>
        <location filename="../src/cli/subcommands.cpp" line="+25"/>
        <source>switchyard: unknown command %1</source>
        <translation>switchyard: unbekannter Befehl %1</translation>
    </message>
    <message>
        <location filename="../src/app/relayrun.cpp" line="-4"/>
        <source>switchyard %1 watching the relay at %2 (none runs here)</source>
        <translation>switchyard %1 beobachtet das Relay unter %2 (hier läuft keines)</translation>
    </message>
</context>
<context>
    <name>switchyard</name>
    <message>
        <location filename="../src/cli/leasecommand.cpp" line="+44"/>
        <source>Usage: switchyard lease HOST --owner NAME [--ttl SECONDS] [--relay URL] -- COMMAND...
Takes HOST&apos;s GPU from the relay: waits for its running requests to finish, stops its engine,
runs COMMAND, and gives the host back however COMMAND ends. Meanwhile model requests for
HOST get 423 naming NAME. Exits with COMMAND&apos;s exit code.
</source>
        <translation>Aufruf: switchyard lease HOST --owner NAME [--ttl SEKUNDEN] [--relay URL] -- BEFEHL...
Nimmt dem Relay die GPU von HOST ab: wartet, bis dessen laufende Anfragen fertig sind, stoppt
seine Engine, führt BEFEHL aus und gibt den Host zurück, wie auch immer BEFEHL endet. Solange
bekommen Modellanfragen an HOST 423 mit NAME. Endet mit dem Exit-Code von BEFEHL.
</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>switchyard lease: unknown argument %1 (see --help)</source>
        <translation>switchyard lease: unbekanntes Argument %1 (siehe --help)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>switchyard lease: needs HOST, --owner NAME and -- COMMAND (see --help)</source>
        <translation>switchyard lease: braucht HOST, --owner NAME und -- BEFEHL (siehe --help)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>switchyard lease: waiting for host %1 to drain and stop its engine...</source>
        <translation>switchyard lease: warte, bis Host %1 leergelaufen ist und seine Engine gestoppt hat …</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>switchyard lease: the relay at %1 did not grant the lease: %2</source>
        <translation>switchyard lease: das Relay unter %1 hat die Reservierung nicht gewährt: %2</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>switchyard lease: host %1 is yours; running %2</source>
        <translation>switchyard lease: Host %1 gehört Ihnen; starte %2</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>switchyard lease: cannot run %1: %2</source>
        <translation>switchyard lease: %1 lässt sich nicht ausführen: %2</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>switchyard lease: could not give host %1 back: %2 (it is released when the lease&apos;s time runs out)</source>
        <translation>switchyard lease: Host %1 ließ sich nicht zurückgeben: %2 (er wird frei, wenn die Reservierung abläuft)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>switchyard lease: host %1 given back</source>
        <translation>switchyard lease: Host %1 zurückgegeben</translation>
    </message>
    <message>
        <location filename="../src/cli/logcommand.cpp" line="+57"/>
        <source>Usage: switchyard log [--follow] [--host H] [--model M] [--limit N] [--relay URL]
Prints the running relay&apos;s request history and host events in the journal format,
oldest first; --follow keeps printing new lines as they happen.
</source>
        <translation>Aufruf: switchyard log [--follow] [--host H] [--model M] [--limit N] [--relay URL]
Gibt den Anfrageverlauf und die Host-Ereignisse des laufenden Relays im Journalformat aus,
das Älteste zuerst; mit --follow kommen neue Zeilen dazu, sobald sie entstehen.
</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>switchyard log: unknown argument %1 (see --help)</source>
        <translation>switchyard log: unbekanntes Argument %1 (siehe --help)</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>switchyard log: no history from the relay at %1: %2</source>
        <translation>switchyard log: kein Verlauf vom Relay unter %1: %2</translation>
    </message>
    <message>
        <location filename="../src/cli/agentcommand.cpp" line="-42"/>
        <source>Usage: switchyard agent --config FILE [--listen HOST:PORT]

Runs on a GPU box: starts and stops its llama.cpp engines when the relay asks.

Options:
  --config FILE         the agent&apos;s engines, token and address (JSON, see docs/CONFIG.md)
  --listen HOST:PORT    address to serve on, instead of the file&apos;s &quot;listen&quot;
  -h, --help            this text
</source>
        <translation>Aufruf: switchyard agent --config DATEI [--listen HOST:PORT]

Läuft auf einem GPU-Rechner: startet und stoppt dessen llama.cpp-Engines, wenn das Relay darum bittet.

Optionen:
  --config DATEI        Engines, Token und Adresse des Agenten (JSON, siehe docs/CONFIG.md)
  --listen HOST:PORT    Adresse, auf der gelauscht wird, statt &quot;listen&quot; aus der Datei
  -h, --help            dieser Text
</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>%1 needs a value</source>
        <translation>%1 braucht einen Wert</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>unknown option %1</source>
        <translation>unbekannte Option %1</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>--config FILE is required</source>
        <translation>--config DATEI ist erforderlich</translation>
    </message>
    <message>
        <location line="+56"/>
        <source>prompt caches are kept until the agent stops: %1</source>
        <translation>Prompt-Caches bleiben nur erhalten, bis der Agent endet: %1</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>switchyard agent listening on http://%1 (engines: %2; agent protocol %3)</source>
        <translation>switchyard agent lauscht auf http://%1 (Engines: %2; Agent-Protokoll %3)</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>stopping engines</source>
        <translation>Engines werden gestoppt</translation>
    </message>
    <message>
        <source>Usage: switchyard export opencode|claude-code|pi [options]

Prints a client config that points at the relay, with the models the relay lists now
(GET /v1/models). Nothing is written unless you ask for it with --write.

  opencode      an opencode.json with a &quot;switchyard&quot; provider for every alias. Model keys
                leave out the words opencode chooses samplers by (qwen, minimax-m2, gemini,
                kimi-k2.5, deepseek-v4-flash, ...): 3090-qwen38-27b becomes the key 3090-q38-27b
                with &quot;id&quot;: &quot;3090-qwen38-27b&quot;. Context and output limits come from the host.
  claude-code   the &quot;env&quot; block for ~/.claude/settings.json: the base URL, a placeholder token,
                every model variable Claude Code reads set to one alias, no traffic to the
                internet, and no second, non-streaming try of a request that failed.
  pi            pi&apos;s models.json (~/.pi/agent/models.json) with a &quot;switchyard&quot; provider.

Options:
  --base-url URL     the relay (default http://127.0.0.1:18766)
  --models A,B,...   only these aliases (opencode, pi)
  --model ALIAS      the default model (default: the first one loaded now, else the first)
  --provider NAME    the provider&apos;s name in the config (opencode, pi; default switchyard)
  --merge FILE       opencode: add or replace our provider in an existing opencode.json and
                     print the result; &quot;model&quot; and &quot;small_model&quot; are set only when absent,
                     everything else is kept as it is
  --write            with --merge: write the result back to FILE (atomically) instead
  --shell            claude-code: print `export NAME=value` lines instead of JSON
  --list FILE        read the model list from FILE (a saved /v1/models answer) instead of
                     asking the relay
  -h, --help         this text

Examples:
  switchyard export opencode &gt; ~/.config/opencode/opencode.json
  switchyard export opencode --merge ~/.config/opencode/opencode.json --write
  switchyard export claude-code --model 3090-flint-40b --shell &gt;&gt; ~/.profile
  switchyard export pi &gt; ~/.pi/agent/models.json
</source>
        <translation type="vanished">Aufruf: switchyard export opencode|claude-code|pi [Optionen]

Gibt eine Client-Konfiguration aus, die auf das Relay zeigt, mit den Modellen, die das Relay
jetzt aufführt (GET /v1/models). Geschrieben wird nur, wenn Sie es mit --write verlangen.

  opencode      eine opencode.json mit einem Provider &quot;switchyard&quot; für jeden Alias. Die Modell-
                schlüssel lassen die Wörter weg, nach denen opencode Sampler wählt (qwen, minimax-m2,
                gemini, kimi-k2.5, deepseek-v4-flash, ...): aus 3090-qwen38-27b wird der Schlüssel
                3090-q38-27b mit &quot;id&quot;: &quot;3090-qwen38-27b&quot;. Kontext- und Ausgabegrenzen kommen vom Host.
  claude-code   der &quot;env&quot;-Block für ~/.claude/settings.json: die Basis-URL, ein Platzhalter-Token,
                jede Modellvariable, die Claude Code liest, auf einen Alias gesetzt, kein
                Verkehr ins Internet und kein zweiter, nicht streamender Versuch einer
                fehlgeschlagenen Anfrage.
  pi            die models.json von pi (~/.pi/agent/models.json) mit einem Provider &quot;switchyard&quot;.

Optionen:
  --base-url URL     das Relay (Vorgabe http://127.0.0.1:18766)
  --models A,B,...   nur diese Aliase (opencode, pi)
  --model ALIAS      das Standardmodell (Vorgabe: das erste gerade geladene, sonst das erste)
  --provider NAME    der Name des Providers in der Konfiguration (opencode, pi; Vorgabe switchyard)
  --merge DATEI      opencode: unseren Provider in einer vorhandenen opencode.json hinzufügen oder
                     ersetzen und das Ergebnis ausgeben; &quot;model&quot; und &quot;small_model&quot; werden nur
                     gesetzt, wenn sie fehlen, alles andere bleibt, wie es ist
  --write            mit --merge: das Ergebnis stattdessen (atomar) nach DATEI zurückschreiben
  --shell            claude-code: Zeilen `export NAME=Wert` statt JSON ausgeben
  --list DATEI       die Modellliste aus DATEI lesen (eine gespeicherte /v1/models-Antwort), statt
                     das Relay zu fragen
  -h, --help         dieser Text

Beispiele:
  switchyard export opencode &gt; ~/.config/opencode/opencode.json
  switchyard export opencode --merge ~/.config/opencode/opencode.json --write
  switchyard export claude-code --model 3090-flint-40b --shell &gt;&gt; ~/.profile
  switchyard export pi &gt; ~/.pi/agent/models.json
</translation>
    </message>
    <message>
        <location filename="../src/cli/exportcommand.cpp" line="+117"/>
        <source>--base-url wants an http:// or https:// URL, not &apos;%1&apos;</source>
        <translation>--base-url erwartet eine http://- oder https://-URL, nicht &apos;%1&apos;</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>cannot read the model list from %1/v1/models: %2 (is the relay running? see --base-url)</source>
        <translation>die Modellliste von %1/v1/models lässt sich nicht lesen: %2 (läuft das Relay? siehe --base-url)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1/v1/models answered HTTP 401: the relay wants a client key; set SWITCHYARD_API_KEY</source>
        <translation>%1/v1/models antwortete mit HTTP 401: Das Relay verlangt einen Client-Schlüssel; SWITCHYARD_API_KEY setzen</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1/v1/models answered HTTP %2</source>
        <translation>%1/v1/models antwortete mit HTTP %2</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>cannot read %1: %2</source>
        <translation>%1 lässt sich nicht lesen: %2</translation>
    </message>
    <message>
        <location line="+53"/>
        <source>see switchyard export --help</source>
        <translation>siehe switchyard export --help</translation>
    </message>
    <message>
        <source>name one client: opencode, claude-code or pi</source>
        <translation type="vanished">einen Client nennen: opencode, claude-code oder pi</translation>
    </message>
    <message>
        <source>unknown client %1: use opencode, claude-code or pi</source>
        <translation type="vanished">unbekannter Client %1: opencode, claude-code oder pi verwenden</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>name one client: opencode, claude-code, pi, codex, cline or qwen</source>
        <translation>nenne einen Client: opencode, claude-code, pi, codex, cline oder qwen</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>unknown client %1: use opencode, claude-code, pi, codex, cline or qwen</source>
        <translation>unbekannter Client %1: nimm opencode, claude-code, pi, codex, cline oder qwen</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>--%1 is not an option of export %2</source>
        <translation>--%1 ist keine Option von export %2</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>--write needs --merge FILE (the file to write back)</source>
        <translation>--write braucht --merge DATEI (die Datei, in die zurückgeschrieben wird)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>--shell prints lines to paste, it cannot be merged into a file</source>
        <translation>--shell gibt Zeilen zum Einfügen aus, sie lassen sich nicht in eine Datei zusammenführen</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>--provider wants a name without &apos;/&apos;</source>
        <translation>--provider erwartet einen Namen ohne &apos;/&apos;</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>the relay at %1 lists no models</source>
        <translation>das Relay unter %1 führt keine Modelle</translation>
    </message>
    <message>
        <location line="+7"/>
        <location line="+8"/>
        <location line="+11"/>
        <source>unknown model %1; known: %2</source>
        <translation>unbekanntes Modell %1; bekannt: %2</translation>
    </message>
    <message>
        <location line="-17"/>
        <source>--models names no model</source>
        <translation>--models nennt kein Modell</translation>
    </message>
    <message>
        <location line="+43"/>
        <source>wrote %1 (Codex&apos;s model catalog)</source>
        <translation>%1 geschrieben (Modellkatalog für Codex)</translation>
    </message>
    <message>
        <location line="+53"/>
        <source>%1 does not exist (leave out --merge to print a new config)</source>
        <translation>%1 gibt es nicht (--merge weglassen, um eine neue Konfiguration auszugeben)</translation>
    </message>
    <message>
        <location line="-54"/>
        <location line="+67"/>
        <source>cannot write %1: %2</source>
        <translation>%1 lässt sich nicht schreiben: %2</translation>
    </message>
    <message>
        <location line="-345"/>
        <source>Usage: switchyard export opencode|claude-code|pi|codex|cline|qwen [options]

Prints a client config that points at the relay, with the models the relay lists now
(GET /v1/models). Nothing is written unless you ask for it with --write.

  opencode      an opencode.json with a &quot;switchyard&quot; provider for every alias. Model keys
                leave out the words opencode chooses samplers by (qwen, minimax-m2, gemini,
                kimi-k2.5, deepseek-v4-flash, ...): 3090-qwen38-27b becomes the key 3090-q38-27b
                with &quot;id&quot;: &quot;3090-qwen38-27b&quot;. Context and output limits come from the host.
  claude-code   the &quot;env&quot; block for ~/.claude/settings.json: the base URL, a placeholder token,
                every model variable Claude Code reads set to one alias, no traffic to the
                internet, and no second, non-streaming try of a request that failed.
  pi            pi&apos;s models.json (~/.pi/agent/models.json) with a &quot;switchyard&quot; provider.
  codex         a config.toml for Codex ($CODEX_HOME/config.toml, ~/.codex by default): a
                [model_providers.switchyard] table on the Responses API, the model and its context
                window, and retries that never repeat a refusal. Codex sends $SWITCHYARD_API_KEY
                as the key: set it (to anything when the relay wants no key). With --catalog FILE
                it also writes Codex&apos;s model catalog for the relay&apos;s models to FILE and names it
                (model_catalog_json): each model&apos;s context window, no &quot;Model metadata not found&quot;
                warning, and Codex 0.169.0&apos;s own base prompt (other Codex versions get that one).
  cline         Cline&apos;s providers.json (~/.cline/data/settings/providers.json): the
                openai-compatible provider with the model and its context window; --shell prints
                the `cline auth` line instead, --settings its global-settings.json (no telemetry,
                no self-update).
  qwen          Qwen Code&apos;s ~/.qwen/settings.json: OpenAI-compatible auth at the relay, the model and
                its context window; --shell prints the OPENAI_* variables instead.

Every config names the model&apos;s context window when the relay knows it (from its engine&apos;s
n_ctx, also for an engine that is not running now).

Options:
  --base-url URL     the relay (default http://127.0.0.1:18766)
  --models A,B,...   only these aliases (opencode, pi, codex)
  --model ALIAS      the default model (default: the first one loaded now, else the first)
  --provider NAME    the provider&apos;s name in the config (opencode, pi, codex; default switchyard)
  --merge FILE       opencode, codex, cline, qwen: add or replace our provider in an existing
                     config and print the result; the default model is set only when absent
                     (opencode, codex), everything else is kept as it is
  --write            with --merge: write the result back to FILE (atomically) instead
  --shell            claude-code, qwen: print `export NAME=value` lines instead of JSON;
                     cline: print the `cline auth` line
  --settings         cline: print (or --merge into) global-settings.json
  --catalog FILE     codex: write the model catalog to FILE (atomically) and name it in the config
  --list FILE        read the model list from FILE (a saved /v1/models answer) instead of
                     asking the relay
  -h, --help         this text

Examples:
  switchyard export opencode &gt; ~/.config/opencode/opencode.json
  switchyard export opencode --merge ~/.config/opencode/opencode.json --write
  switchyard export claude-code --model 3090-flint-40b --shell &gt;&gt; ~/.profile
  switchyard export pi &gt; ~/.pi/agent/models.json
  switchyard export codex --merge ~/.codex/config.toml --write
  switchyard export codex --catalog ~/.codex/switchyard-models.json &gt; ~/.codex/config.toml
  switchyard export cline &gt; ~/.cline/data/settings/providers.json
  switchyard export qwen --merge ~/.qwen/settings.json --write
</source>
        <translation>Aufruf: switchyard export opencode|claude-code|pi|codex|cline|qwen [Optionen]

Gibt eine Client-Konfiguration aus, die auf das Relay zeigt, mit den Modellen, die das Relay
jetzt aufführt (GET /v1/models). Geschrieben wird nur, wenn Sie es mit --write verlangen.

  opencode      eine opencode.json mit einem Provider &quot;switchyard&quot; für jeden Alias. Die Modell-
                schlüssel lassen die Wörter weg, nach denen opencode Sampler wählt (qwen, minimax-m2,
                gemini, kimi-k2.5, deepseek-v4-flash, ...): aus 3090-qwen38-27b wird der Schlüssel
                3090-q38-27b mit &quot;id&quot;: &quot;3090-qwen38-27b&quot;. Kontext- und Ausgabegrenzen kommen vom Host.
  claude-code   der &quot;env&quot;-Block für ~/.claude/settings.json: die Basis-URL, ein Platzhalter-Token,
                jede Modellvariable, die Claude Code liest, auf einen Alias gesetzt, kein
                Verkehr ins Internet und kein zweiter, nicht streamender Versuch einer
                fehlgeschlagenen Anfrage.
  pi            die models.json von pi (~/.pi/agent/models.json) mit einem Provider &quot;switchyard&quot;.
  codex         eine config.toml für Codex ($CODEX_HOME/config.toml, sonst ~/.codex): eine Tabelle
                [model_providers.switchyard] auf der Responses-API, das Modell und sein Kontext-
                fenster und Wiederholungen, die keine Ablehnung wiederholen. Codex sendet
                $SWITCHYARD_API_KEY als Schlüssel: setze ihn (auf irgendetwas, wenn das Relay keinen will).
                Mit --catalog DATEI schreibt es auch den Modellkatalog von Codex für die Modelle des
                Relays nach DATEI und nennt ihn (model_catalog_json): das Kontextfenster jedes Modells,
                keine Warnung &quot;Model metadata not found&quot; und der eigene Basis-Prompt von Codex
                0.169.0 (andere Codex-Versionen bekommen diesen).
  cline         die providers.json von Cline (~/.cline/data/settings/providers.json): der Provider
                openai-compatible mit dem Modell und seinem Kontextfenster; --shell gibt stattdessen
                die Zeile `cline auth` aus, --settings seine global-settings.json (keine Telemetrie,
                keine Selbstaktualisierung).
  qwen          die ~/.qwen/settings.json von Qwen Code: OpenAI-kompatible Anmeldung am Relay, das
                Modell und sein Kontextfenster; --shell gibt stattdessen die OPENAI_*-Variablen aus.

Jede Konfiguration nennt das Kontextfenster des Modells, wenn das Relay es kennt (aus dem n_ctx
seiner Engine, auch für eine Engine, die gerade nicht läuft).

Optionen:
  --base-url URL     das Relay (Vorgabe http://127.0.0.1:18766)
  --models A,B,...   nur diese Aliase (opencode, pi, codex)
  --model ALIAS      das Standardmodell (Vorgabe: das erste gerade geladene, sonst das erste)
  --provider NAME    der Name des Providers in der Konfiguration (opencode, pi, codex; Vorgabe switchyard)
  --merge DATEI      opencode, codex, cline, qwen: unseren Provider in einer vorhandenen Konfiguration
                     hinzufügen oder ersetzen und das Ergebnis ausgeben; das Standardmodell wird nur
                     gesetzt, wenn es fehlt (opencode, codex), alles andere bleibt, wie es ist
  --write            mit --merge: das Ergebnis stattdessen (atomar) nach DATEI zurückschreiben
  --shell            claude-code, qwen: Zeilen `export NAME=Wert` statt JSON ausgeben;
                     cline: die Zeile `cline auth` ausgeben
  --settings         cline: global-settings.json ausgeben (oder mit --merge zusammenführen)
  --catalog DATEI    codex: den Modellkatalog (atomar) nach DATEI schreiben und in der Konfiguration nennen
  --list DATEI       die Modellliste aus DATEI lesen (eine gespeicherte /v1/models-Antwort), statt
                     das Relay zu fragen
  -h, --help         dieser Text

Beispiele:
  switchyard export opencode &gt; ~/.config/opencode/opencode.json
  switchyard export opencode --merge ~/.config/opencode/opencode.json --write
  switchyard export claude-code --model 3090-flint-40b --shell &gt;&gt; ~/.profile
  switchyard export pi &gt; ~/.pi/agent/models.json
  switchyard export codex --merge ~/.codex/config.toml --write
  switchyard export codex --catalog ~/.codex/switchyard-models.json &gt; ~/.codex/config.toml
  switchyard export cline &gt; ~/.cline/data/settings/providers.json
  switchyard export qwen --merge ~/.qwen/settings.json --write
</translation>
    </message>
    <message>
        <location line="+58"/>
        <source>Claude Code&apos;s tiers (claude-code only; a tier left out gets the default model):
  --opus ALIAS       its opus model
  --sonnet ALIAS     its sonnet model
  --haiku ALIAS      its haiku model, also for its small, fast requests
</source>
        <translation>Die Stufen von Claude Code (nur claude-code; eine weggelassene Stufe bekommt das Standardmodell):
  --opus ALIAS       sein Opus-Modell
  --sonnet ALIAS     sein Sonnet-Modell
  --haiku ALIAS      sein Haiku-Modell, auch für seine kleinen, schnellen Anfragen
</translation>
    </message>
    <message>
        <location line="+288"/>
        <source>wrote %1 for %2</source>
        <translation>%1 für %2 geschrieben</translation>
    </message>
    <message>
        <location filename="../src/cli/usagecommand.cpp" line="+72"/>
        <source>Usage: switchyard usage [--since 7d] [--by key|client|alias|host] [--json] [--relay URL]
Prints what each client key (or client app, alias, host) used of the fleet since then:
requests, tokens in (prompts) and out (generated), GPU time (its requests&apos; time on an
engine, from being forwarded to their end, without waits for a switch, a wake or the queue)
and the engine switches its requests caused.
--since takes 30m, 24h, 7d, 2w, seconds since the epoch or an ISO time.
</source>
        <translation>Aufruf: switchyard usage [--since 7d] [--by key|client|alias|host] [--json] [--relay URL]
Gibt aus, was jeder Client-Schlüssel (oder jede Client-App, jeder Alias, jeder Host) seitdem
von der Flotte genutzt hat: Anfragen, Tokens rein (Prompts) und raus (erzeugt), GPU-Zeit (die
Zeit seiner Anfragen auf einer Engine, von der Weiterleitung bis zu ihrem Ende, ohne das Warten
auf einen Wechsel, ein Aufwecken oder die Warteschlange) und die Engine-Wechsel, die seine Anfragen auslösten.
--since nimmt 30m, 24h, 7d, 2w, Sekunden seit der Epoche oder eine ISO-Zeit.
</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>switchyard usage: unknown argument %1 (see --help)</source>
        <translation>switchyard usage: unbekanntes Argument %1 (siehe --help)</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>switchyard usage: no usage from the relay at %1: %2</source>
        <translation>switchyard usage: keine Nutzung vom Relay unter %1: %2</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>CLIENT</source>
        <translation>CLIENT</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>ALIAS</source>
        <translation>ALIAS</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>HOST</source>
        <translation>HOST</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>KEY</source>
        <translation>SCHLÜSSEL</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>REQUESTS</source>
        <translation>ANFRAGEN</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>TOKENS IN</source>
        <translation>TOKENS REIN</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>TOKENS OUT</source>
        <translation>TOKENS RAUS</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>GPU TIME</source>
        <translation>GPU-ZEIT</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>SWITCHES</source>
        <translation>WECHSEL</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>total</source>
        <translation>gesamt</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Since %1, by %2:</source>
        <translation>Seit %1, nach %2:</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1 of the switches were caused by no request (an admin&apos;s switch, a lease&apos;s end).</source>
        <translation>%1 der Wechsel hat keine Anfrage ausgelöst (ein Wechsel durch den Admin, das Ende einer Reservierung).</translation>
    </message>
</context>
<context>
    <name>switchyard::AddHostDialog</name>
    <message>
        <location filename="../ui/dialogs/addhostdialog.cpp" line="+32"/>
        <source>loaded</source>
        <translation>geladen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>loading</source>
        <translation>lädt</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>sleeping</source>
        <translation>schläft</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>not loaded</source>
        <translation>nicht geladen</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>&amp;Check</source>
        <translation>&amp;Prüfen</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Add a GPU Box</source>
        <translation>GPU-Rechner hinzufügen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>http://gpu-box.lan:8080</source>
        <translation>http://gpu-rechner.lan:8080</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Where llama-server (a router, or a server with one model) answers on that machine</source>
        <translation>Wo llama-server (ein Router oder ein Server mit einem Modell) auf diesem Rechner antwortet</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>optional: the server&apos;s --api-key</source>
        <translation>optional: der --api-key des Servers</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>from the address</source>
        <translation>aus der Adresse</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Clients name its models NAME-MODEL; letters, digits, &apos;.&apos; and &apos;_&apos; only</source>
        <translation>Clients nennen seine Modelle NAME-MODELL; nur Buchstaben, Ziffern, &apos;.&apos; und &apos;_&apos;</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Enter the address and press Check: Switchyard asks the box what it serves before anything is saved.</source>
        <translation>Adresse eingeben und „Prüfen“ drücken: Switchyard fragt den Rechner, was er anbietet, bevor etwas gespeichert wird.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Model</source>
        <translation>Modell</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Context</source>
        <translation>Kontext</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>&amp;Address:</source>
        <translation>&amp;Adresse:</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>API &amp;key:</source>
        <translation>API-&amp;Schlüssel:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Name:</source>
        <translation>&amp;Name:</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Add and Start</source>
        <translation>&amp;Hinzufügen und starten</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>&amp;Add</source>
        <translation>&amp;Hinzufügen</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Added to the hosts editor&apos;s list; the config goes to %1 when you save there</source>
        <translation>Zur Liste des Host-Editors hinzugefügt; die Konfiguration wird beim Speichern dort nach %1 geschrieben</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Nothing is written until you add it; then the config goes to %1</source>
        <translation>Nichts wird geschrieben, bevor Sie ihn hinzufügen; dann kommt die Konfiguration nach %1</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Rewrite the Config File?</source>
        <translation>Konfigurationsdatei neu schreiben?</translation>
    </message>
    <message>
        <location line="+46"/>
        <source>Not added: the host &quot;%1&quot; already has this address. Edit that host instead, or enter another address.</source>
        <translation>Nicht hinzugefügt: Der Host &quot;%1&quot; hat diese Adresse bereits. Bearbeiten Sie stattdessen diesen Host, oder geben Sie eine andere Adresse ein.</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Enter the box&apos;s address first, e.g. http://gpu-box.lan:8080</source>
        <translation>Zuerst die Adresse des Rechners eingeben, z. B. http://gpu-rechner.lan:8080</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Asking %1…</source>
        <translation>Frage %1 …</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Not added yet.</source>
        <translation>Noch nicht hinzugefügt.</translation>
    </message>
    <message numerus="yes">
        <location line="+6"/>
        <source>A llama.cpp router with %n model(s).</source>
        <translation>
            <numerusform>Ein llama.cpp-Router mit %n Modell.</numerusform>
            <numerusform>Ein llama.cpp-Router mit %n Modellen.</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>A llama.cpp server with one model, still loading it.</source>
        <translation>Ein llama.cpp-Server mit einem Modell, das er noch lädt.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A llama.cpp server with one model.</source>
        <translation>Ein llama.cpp-Server mit einem Modell.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Build %1.</source>
        <translation>Build %1.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reachable.</source>
        <translation>Erreichbar.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>unknown</source>
        <translation>unbekannt</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 tokens</source>
        <translation>%1 Token</translation>
    </message>
    <message>
        <location line="+41"/>
        <source>Another host is called &quot;%1&quot;: choose another name.</source>
        <translation>Ein anderer Host heißt &quot;%1&quot;: Wählen Sie einen anderen Namen.</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Cannot read %1: %2</source>
        <translation>%1 lässt sich nicht lesen: %2</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1 is not changed: %2</source>
        <translation>%1 bleibt unverändert: %2</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>adds the host &quot;%1&quot; (%2)</source>
        <translation>fügt den Host „%1“ hinzu (%2)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>lays the file out again: its spacing and line breaks change</source>
        <translation>ordnet die Datei neu an: Abstände und Zeilenumbrüche ändern sich</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>keeps its %n comment(s) and every other field</source>
        <translation>
            <numerusform>behält ihren %n Kommentar und jedes andere Feld</numerusform>
            <numerusform>behält ihre %n Kommentare und jedes andere Feld</numerusform>
        </translation>
    </message>
    <message>
        <location line="+1"/>
        <source>keeps the file as it is now in %1.bak</source>
        <translation>hebt die Datei, wie sie jetzt ist, in %1.bak auf</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 was written by hand. Saving:</source>
        <translation>%1 wurde von Hand geschrieben. Speichern:</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Not saved: the file would not load.</source>
        <translation>Nicht gespeichert: die Datei ließe sich nicht laden.</translation>
    </message>
</context>
<context>
    <name>switchyard::AgentDriver</name>
    <message>
        <source>the agent at %1 refused the token (401): check &quot;token&quot; in both configs</source>
        <translation type="vanished">der Agent unter %1 hat das Token abgelehnt (401): &quot;token&quot; in beiden Konfigurationen prüfen</translation>
    </message>
    <message>
        <source>the agent at %1 answered %2</source>
        <translation type="vanished">der Agent unter %1 antwortete %2</translation>
    </message>
    <message>
        <source>the agent at %1 sent a status that is not JSON</source>
        <translation type="vanished">der Agent unter %1 hat einen Status geschickt, der kein JSON ist</translation>
    </message>
</context>
<context>
    <name>switchyard::AgentRequest</name>
    <message>
        <source>no answer from the agent at %1 to %2 within %3</source>
        <translation type="vanished">keine Antwort vom Agenten unter %1 auf %2 innerhalb von %3</translation>
    </message>
    <message>
        <source>the agent at %1 did not answer: %2</source>
        <translation type="vanished">der Agent unter %1 hat nicht geantwortet: %2</translation>
    </message>
</context>
<context>
    <name>switchyard::AgentService</name>
    <message>
        <location filename="../src/engines/agentservice.cpp" line="+76"/>
        <source>cannot listen on %1:%2: %3</source>
        <translation>auf %1:%2 lässt sich nicht lauschen: %3</translation>
    </message>
    <message>
        <location line="+36"/>
        <source>engine %1: starting</source>
        <translation>Engine %1: startet</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>engine %1: up after %2</source>
        <translation>Engine %1: läuft nach %2</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>engine %1: stopping</source>
        <translation>Engine %1: wird gestoppt</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>engine %1: stopped</source>
        <translation>Engine %1: gestoppt</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>engine %1: start failed: %2</source>
        <translation>Engine %1: Start fehlgeschlagen: %2</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>engine %1: exited on its own: %2</source>
        <translation>Engine %1: hat sich von selbst beendet: %2</translation>
    </message>
    <message>
        <source>no such path: %1</source>
        <translation type="vanished">diesen Pfad gibt es nicht: %1</translation>
    </message>
    <message>
        <source>missing or wrong token</source>
        <translation type="vanished">Token fehlt oder ist falsch</translation>
    </message>
    <message>
        <source>use GET</source>
        <translation type="vanished">GET verwenden</translation>
    </message>
    <message>
        <source>use POST</source>
        <translation type="vanished">POST verwenden</translation>
    </message>
    <message>
        <source>the agent is shutting down</source>
        <translation type="vanished">der Agent fährt herunter</translation>
    </message>
    <message>
        <source>expected a JSON object like {&quot;engine&quot;:&quot;NAME&quot;}</source>
        <translation type="vanished">ein JSON-Objekt wie {&quot;engine&quot;:&quot;NAME&quot;} erwartet</translation>
    </message>
    <message>
        <source>&quot;engine&quot; is missing</source>
        <translation type="vanished">&quot;engine&quot; fehlt</translation>
    </message>
    <message>
        <source>&quot;engine&quot; must be a string</source>
        <translation type="vanished">&quot;engine&quot; muss eine Zeichenkette sein</translation>
    </message>
    <message>
        <source>no engine called %1 on this agent (engines: %2)</source>
        <translation type="vanished">keine Engine namens %1 auf diesem Agenten (Engines: %2)</translation>
    </message>
</context>
<context>
    <name>switchyard::ClientConfigExporter</name>
    <message>
        <location filename="../ui/shared/clientconfigexporter.cpp" line="+22"/>
        <source>opencode</source>
        <translation>opencode</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Claude Code</source>
        <translation>Claude Code</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>pi</source>
        <translation>pi</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Codex</source>
        <translation>Codex</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cline</source>
        <translation>Cline</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Qwen Code</source>
        <translation>Qwen Code</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>export exited with code %1</source>
        <translation>export endete mit Code %1</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>cannot run %1: %2</source>
        <translation>%1 lässt sich nicht ausführen: %2</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>cannot write the model list for the export: %1</source>
        <translation>die Modellliste für den Export lässt sich nicht schreiben: %1</translation>
    </message>
</context>
<context>
    <name>switchyard::CodexExport</name>
    <message>
        <location filename="../src/export/codexexport.cpp" line="+147"/>
        <source>cannot read Codex&apos;s base prompt %1: %2</source>
        <translation>der Basis-Prompt von Codex, %1, lässt sich nicht lesen: %2</translation>
    </message>
    <message>
        <location line="+121"/>
        <source>%1: a multi-line string is not closed; nothing was changed</source>
        <translation>%1: eine mehrzeilige Zeichenkette ist nicht geschlossen; nichts wurde geändert</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>%1 names a model_catalog_json of its own (%2); Codex reads one catalog: leave out --catalog, or take that line out</source>
        <translation>%1 nennt ein eigenes model_catalog_json (%2); Codex liest nur einen Katalog: --catalog weglassen oder diese Zeile entfernen</translation>
    </message>
</context>
<context>
    <name>switchyard::CommandDriver</name>
    <message>
        <source>killed by signal %1</source>
        <translation type="vanished">wurde durch Signal %1 beendet</translation>
    </message>
    <message>
        <source>exited with code %1</source>
        <translation type="vanished">endete mit Code %1</translation>
    </message>
    <message>
        <source>host %1: no engine can be reached: %2</source>
        <translation type="vanished">Host %1: keine Engine ist erreichbar: %2</translation>
    </message>
    <message>
        <source>no engine called %1 on host %2</source>
        <translation type="vanished">keine Engine namens %1 auf Host %2</translation>
    </message>
    <message>
        <source>the start command %1</source>
        <translation type="vanished">der Startbefehl %1</translation>
    </message>
    <message>
        <source>no /health within %1 of the start command</source>
        <translation type="vanished">kein /health innerhalb von %1 nach dem Startbefehl</translation>
    </message>
    <message>
        <source> (last try: %1)</source>
        <translation type="vanished"> (letzter Versuch: %1)</translation>
    </message>
    <message>
        <source>; last output: %1</source>
        <translation type="vanished">; letzte Ausgabe: %1</translation>
    </message>
    <message>
        <source>host %1: the stop command of engine %2 %3</source>
        <translation type="vanished">Host %1: der Stoppbefehl von Engine %2 %3</translation>
    </message>
    <message>
        <source>engine %1 of host %2 still answers /health %3 after its stop command</source>
        <translation type="vanished">Engine %1 von Host %2 antwortet %3 nach ihrem Stoppbefehl noch auf /health</translation>
    </message>
    <message>
        <source> (which %1)</source>
        <translation type="vanished"> (der Befehl %1)</translation>
    </message>
</context>
<context>
    <name>switchyard::CommandLine</name>
    <message>
        <location filename="../src/app/commandline.cpp" line="+23"/>
        <source>%1 needs a value</source>
        <translation>%1 braucht einen Wert</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>unknown argument: %1 (see --help)</source>
        <translation>unbekanntes Argument: %1 (siehe --help)</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>--demo brings its own hosts; leave out --config and --upstream</source>
        <translation>--demo bringt eigene Hosts mit; --config und --upstream weglassen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>use either --config or --upstream, not both</source>
        <translation>entweder --config oder --upstream verwenden, nicht beides</translation>
    </message>
</context>
<context>
    <name>switchyard::ConfigReloader</name>
    <message>
        <location filename="../src/app/configreloader.cpp" line="+71"/>
        <source>the command line and settings</source>
        <translation>der Befehlszeile und den Einstellungen</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>the config could not be read</source>
        <translation>die Konfiguration ließ sich nicht lesen</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+7"/>
        <source>switchyard: config not reloaded, the running one stays: %1</source>
        <translation>switchyard: Konfiguration nicht neu geladen, die laufende bleibt: %1</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>switchyard: config reloaded from %1</source>
        <translation>switchyard: Konfiguration neu geladen aus %1</translation>
    </message>
    <message>
        <location line="-30"/>
        <source>switchyard: watching the relay at %1; the relay here stops once its requests are done</source>
        <translation>switchyard: beobachtet das Relay unter %1; das Relay hier endet, sobald seine Anfragen fertig sind</translation>
    </message>
</context>
<context>
    <name>switchyard::DesktopApp</name>
    <message>
        <location filename="../ui/desktop/desktopapp.cpp" line="+59"/>
        <source>Switchyard is still relaying</source>
        <translation>Switchyard vermittelt weiter</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>It keeps running in the tray. Quit it from the tray menu.</source>
        <translation>Es läuft in der Systemleiste weiter. Beenden über das Menü in der Systemleiste.</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>The config was not reloaded; the relay goes on with the one it had.</source>
        <translation>Die Konfiguration wurde nicht neu geladen; das Relay läuft mit der bisherigen weiter.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Config not reloaded</source>
        <translation>Konfiguration nicht neu geladen</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Config reloaded from %1</source>
        <translation>Konfiguration neu geladen aus %1</translation>
    </message>
    <message>
        <location line="+62"/>
        <source>The relay at %1 started again with a new history: the requests and switches shown before are no longer in it. The window shows its new history from here on.</source>
        <translation>Das Relay unter %1 wurde mit einem neuen Verlauf neu gestartet: Die bisher angezeigten Anfragen und Wechsel sind darin nicht mehr enthalten. Das Fenster zeigt ab jetzt seinen neuen Verlauf.</translation>
    </message>
    <message>
        <location line="+52"/>
        <source>No system tray was found, so Switchyard runs in this window: closing it stops the relay.</source>
        <translation>Es wurde keine Systemleiste gefunden, deshalb läuft Switchyard in diesem Fenster: Schließen beendet das Relay.</translation>
    </message>
    <message>
        <location line="+72"/>
        <source>Settings are not available in this mode</source>
        <translation>In diesem Modus gibt es keine Einstellungen</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>This session has no config file (its hosts come from the command line or the demo): choose one in Settings to edit hosts.</source>
        <translation>Diese Sitzung hat keine Konfigurationsdatei (ihre Hosts kommen von der Befehlszeile oder aus der Demo): wählen Sie in den Einstellungen eine, um Hosts zu bearbeiten.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Edit Hosts</source>
        <translation>Hosts bearbeiten</translation>
    </message>
</context>
<context>
    <name>switchyard::EngineProcess</name>
    <message>
        <source>%1 s</source>
        <translation type="vanished">%1 s</translation>
    </message>
    <message>
        <source>%1 already answers /health: a server Switchyard did not start is running there</source>
        <translation type="vanished">%1 antwortet bereits auf /health: dort läuft ein Server, den Switchyard nicht gestartet hat</translation>
    </message>
    <message>
        <source>no argv: nothing to start</source>
        <translation type="vanished">kein argv: nichts zu starten</translation>
    </message>
    <message>
        <source>cannot start %1: %2</source>
        <translation type="vanished">%1 lässt sich nicht starten: %2</translation>
    </message>
    <message>
        <source>killed by signal %1</source>
        <translation type="vanished">wurde durch Signal %1 beendet</translation>
    </message>
    <message>
        <source>exited with code %1</source>
        <translation type="vanished">endete mit Code %1</translation>
    </message>
    <message>
        <source>no /health within %1</source>
        <translation type="vanished">kein /health innerhalb von %1</translation>
    </message>
    <message>
        <source> (last try: %1)</source>
        <translation type="vanished"> (letzter Versuch: %1)</translation>
    </message>
    <message>
        <source>; last output: %1</source>
        <translation type="vanished">; letzte Ausgabe: %1</translation>
    </message>
    <message>
        <source>engine %1 did not stop within %2 of SIGTERM; sending SIGKILL</source>
        <translation type="vanished">Engine %1 hat nicht innerhalb von %2 nach SIGTERM angehalten; sende SIGKILL</translation>
    </message>
</context>
<context>
    <name>switchyard::EngineSupervisor</name>
    <message>
        <source>cannot write %1: %2</source>
        <translation type="vanished">%1 lässt sich nicht schreiben: %2</translation>
    </message>
    <message>
        <source>stopping engine %1 (pid %2, %3 process(es)) left behind by an earlier run: %4</source>
        <translation type="vanished">stoppe Engine %1 (PID %2, %3 Prozess(e)), die ein früherer Lauf zurückgelassen hat: %4</translation>
    </message>
    <message>
        <source>no engine called %1 (engines: %2)</source>
        <translation type="vanished">keine Engine namens %1 (Engines: %2)</translation>
    </message>
    <message>
        <source>the supervisor could not take its state file %1</source>
        <translation type="vanished">der Supervisor konnte seine Zustandsdatei %1 nicht übernehmen</translation>
    </message>
    <message>
        <source>superseded by a switch to engine %1</source>
        <translation type="vanished">abgelöst durch einen Wechsel zu Engine %1</translation>
    </message>
    <message>
        <source>stopped before it was ready</source>
        <translation type="vanished">gestoppt, bevor sie bereit war</translation>
    </message>
    <message>
        <source>engine %1 exited on its own: %2</source>
        <translation type="vanished">Engine %1 hat sich von selbst beendet: %2</translation>
    </message>
</context>
<context>
    <name>switchyard::ExportDialog</name>
    <message>
        <source>As shell &amp;exports (export NAME=value)</source>
        <translation type="vanished">Als Shell-E&amp;xporte (export NAME=Wert)</translation>
    </message>
    <message>
        <location filename="../ui/dialogs/exportdialog.cpp" line="+42"/>
        <source>&amp;Copy</source>
        <translation>&amp;Kopieren</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Save As…</source>
        <translation>&amp;Speichern unter…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Merge Into…</source>
        <translation>&amp;Zusammenführen mit …</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Export Client Config</source>
        <translation>Client-Konfiguration exportieren</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The first loaded model</source>
        <translation>Das erste geladene Modell</translation>
    </message>
    <message>
        <source>Add the relay&apos;s provider to an existing opencode.json, keeping everything else; the result is shown here and written when you save it</source>
        <translation type="vanished">Den Provider des Relays in eine vorhandene opencode.json einfügen, alles andere bleibt; das Ergebnis wird hier gezeigt und beim Speichern geschrieben</translation>
    </message>
    <message>
        <location line="-15"/>
        <source>As shell &amp;commands (export NAME=value, cline auth)</source>
        <translation>Als Shell-&amp;Befehle (export NAME=Wert, cline auth)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Codex: write its model c&amp;atalog too (each model&apos;s context window, no &quot;model metadata not found&quot; warning)</source>
        <translation>Codex: auch seinen Modellk&amp;atalog schreiben (das Kontextfenster jedes Modells, keine Warnung &quot;model metadata not found&quot;)</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Opus:</source>
        <translation>Opus:</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Sonnet:</source>
        <translation>Sonnet:</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Haiku:</source>
        <translation>Haiku:</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>as the default</source>
        <translation>wie das Standardmodell</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>The models Claude Code uses for its opus, sonnet and haiku tiers (haiku also for its small, fast requests). One model for all keeps a one-model router from swapping.</source>
        <translation>Die Modelle, die Claude Code für seine Stufen Opus, Sonnet und Haiku nimmt (Haiku auch für seine kleinen, schnellen Anfragen). Ein Modell für alle erspart einem Router mit einem Modell das Wechseln.</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Writes switchyard-models.json next to Codex&apos;s config.toml as soon as it is ticked, and names it in the config. It carries Codex 0.169.0&apos;s own base prompt, which another Codex version is sent too.</source>
        <translation>Schreibt switchyard-models.json neben die config.toml von Codex, sobald es angehakt wird, und nennt die Datei in der Konfiguration. Sie enthält den eigenen Basis-Prompt von Codex 0.169.0, den auch eine andere Codex-Version bekommt.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Add the relay&apos;s provider to the client&apos;s existing config file, keeping everything else; the result is shown here and written when you save it</source>
        <translation>Den Provider des Relays zur vorhandenen Konfigurationsdatei des Clients hinzufügen und alles andere behalten; das Ergebnis wird hier gezeigt und beim Speichern geschrieben</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>C&amp;lient:</source>
        <translation>C&amp;lient:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Default model:</source>
        <translation>Standard&amp;modell:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Claude Code &amp;tiers:</source>
        <translation>Claude-Code-&amp;Stufen:</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>Copied to the clipboard.</source>
        <translation>In die Zwischenablage kopiert.</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>The export failed: %1</source>
        <translation>Der Export ist fehlgeschlagen: %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Merged with %1; Save writes the result back to it.</source>
        <translation>Mit %1 zusammengeführt; Speichern schreibt das Ergebnis dorthin zurück.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Wrote Codex&apos;s model catalog to %1.</source>
        <translation>Modellkatalog für Codex nach %1 geschrieben.</translation>
    </message>
    <message>
        <location line="+72"/>
        <source>%1 is the key %2</source>
        <translation>%1 hat den Schlüssel %2</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>opencode chooses sampler settings by a model&apos;s name, which would override the host&apos;s presets: the config&apos;s keys leave those words out (%1). The &quot;id&quot; opencode sends is still the alias.</source>
        <translation>opencode wählt Sampler-Einstellungen nach dem Namen eines Modells, und die würden die Voreinstellungen des Hosts überschreiben: die Schlüssel der Konfiguration lassen diese Wörter weg (%1). Die &quot;id&quot;, die opencode sendet, bleibt der Alias.</translation>
    </message>
    <message>
        <location line="+8"/>
        <location line="+6"/>
        <source>Add these lines to your shell&apos;s profile (~/.profile or ~/.bashrc).</source>
        <translation>Fügen Sie diese Zeilen dem Profil Ihrer Shell hinzu (~/.profile oder ~/.bashrc).</translation>
    </message>
    <message>
        <location line="-5"/>
        <source>Claude Code reads ~/.claude/settings.json: copy the &quot;env&quot; block into it, or save this as that file if you have none.</source>
        <translation>Claude Code liest ~/.claude/settings.json: kopieren Sie den &quot;env&quot;-Block hinein, oder speichern Sie dies als diese Datei, wenn Sie keine haben.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Run this command once: it writes Cline&apos;s provider settings.</source>
        <translation>Führen Sie diesen Befehl einmal aus: er schreibt die Anbieter-Einstellungen von Cline.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 reads %2: Merge Into… adds the relay to it and keeps your settings; Save As… writes a new file.</source>
        <translation>%1 liest %2: „Zusammenführen mit …“ fügt das Relay hinzu und behält Ihre Einstellungen; „Speichern unter …“ schreibt eine neue Datei.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 reads %2: Save As… writes it there.</source>
        <translation>%1 liest %2: „Speichern unter …“ schreibt sie dorthin.</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>Asking the relay for its models…</source>
        <translation>Frage das Relay nach seinen Modellen…</translation>
    </message>
    <message>
        <location line="+40"/>
        <source>Merge Into the Client&apos;s Config</source>
        <translation>In die Konfiguration des Clients zusammenführen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Configs (*.json *.jsonc *.toml);;All files (*)</source>
        <translation>Konfigurationen (*.json *.jsonc *.toml);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Merge Into opencode.json</source>
        <translation type="vanished">Mit opencode.json zusammenführen</translation>
    </message>
    <message>
        <source>opencode config (*.json *.jsonc);;All files (*)</source>
        <translation type="vanished">opencode-Konfiguration (*.json *.jsonc);;Alle Dateien (*)</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Save Client Config</source>
        <translation>Client-Konfiguration speichern</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Could not save %1: %2</source>
        <translation>%1 konnte nicht gespeichert werden: %2</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Saved %1.</source>
        <translation>%1 gespeichert.</translation>
    </message>
</context>
<context>
    <name>switchyard::HealthCheck</name>
    <message>
        <source>%1 did not answer /health within %2 ms</source>
        <translation type="vanished">%1 hat nicht innerhalb von %2 ms auf /health geantwortet</translation>
    </message>
    <message>
        <source>/health answered %1</source>
        <translation type="vanished">/health antwortete %1</translation>
    </message>
</context>
<context>
    <name>switchyard::HistoryWriter</name>
    <message>
        <location filename="../src/store/historywriter.cpp" line="+157"/>
        <source>Cannot create the folder %1.</source>
        <translation>Der Ordner %1 lässt sich nicht anlegen.</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Cannot switch the history database to WAL mode: %1</source>
        <translation>Die Verlaufsdatenbank lässt sich nicht in den WAL-Modus schalten: %1</translation>
    </message>
    <message numerus="yes">
        <location line="+84"/>
        <source>The history database is not open; %n row(s) not stored.</source>
        <translation>
            <numerusform>Die Verlaufsdatenbank ist nicht geöffnet; %n Zeile nicht gespeichert.</numerusform>
            <numerusform>Die Verlaufsdatenbank ist nicht geöffnet; %n Zeilen nicht gespeichert.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+87"/>
        <source>%n row(s) not stored in the history: %1</source>
        <translation>
            <numerusform>%n Zeile nicht im Verlauf gespeichert: %1</numerusform>
            <numerusform>%n Zeilen nicht im Verlauf gespeichert: %1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>switchyard::HostCardDelegate</name>
    <message numerus="yes">
        <location filename="../ui/window/hostcarddelegate.cpp" line="+137"/>
        <source>%1 of %n model(s) loaded</source>
        <translation>
            <numerusform>%1 von %n Modell geladen</numerusform>
            <numerusform>%1 von %n Modellen geladen</numerusform>
        </translation>
    </message>
    <message>
        <location line="+0"/>
        <source>no models listed</source>
        <translation>keine Modelle aufgeführt</translation>
    </message>
    <message>
        <location line="-4"/>
        <location line="+5"/>
        <source>engine %1 · %2</source>
        <translation>Engine %1 · %2</translation>
    </message>
    <message>
        <location line="-40"/>
        <source>stopping %1</source>
        <translation>%1 wird beendet</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>→ %1</source>
        <translation>→ %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 → %2</source>
        <translation>%1 → %2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>no engine: the GPU is lent out</source>
        <translation>keine Engine: die GPU ist verliehen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>no engine running · the next request starts one</source>
        <translation>keine Engine läuft · die nächste Anfrage startet eine</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>asleep · the next request wakes or starts it</source>
        <translation>schläft · die nächste Anfrage weckt oder startet ihn</translation>
    </message>
    <message>
        <source>waking · waiting for the host to answer</source>
        <translation type="vanished">wird geweckt · wartet, bis der Host antwortet</translation>
    </message>
    <message>
        <source>waking · waiting for the host to answer · %1</source>
        <translation type="vanished">wird geweckt · wartet, bis der Host antwortet · %1</translation>
    </message>
    <message>
        <location line="-35"/>
        <source>loading %1</source>
        <translation>lädt %1</translation>
    </message>
    <message>
        <location line="-17"/>
        <source>%1 GB</source>
        <translation>%1 GB</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>%1 MB</source>
        <translation>%1 MB</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 of %2 GB</source>
        <translation>%1 von %2 GB</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 of %2 MB</source>
        <translation>%1 von %2 MB</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>%1 %</source>
        <translation>%1 %</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>loading %1 · %2</source>
        <translation>lädt %1 · %2</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>downloading %1 · %2</source>
        <translation>lädt %1 herunter · %2</translation>
    </message>
    <message>
        <location line="+41"/>
        <source>waiting for the host to answer</source>
        <translation>wartet, bis der Host antwortet</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>engine %1 starting</source>
        <translation>Engine %1 startet</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>waking · %1 · %2</source>
        <translation>wird geweckt · %1 · %2</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>waking · %1</source>
        <translation>wird geweckt · %1</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>engine %1 · %2 · %3</source>
        <translation>Engine %1 · %2 · %3</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>live</source>
        <translation>live</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 ms round trip</source>
        <translation>%1 ms Antwortzeit</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>polled %1</source>
        <translation>abgefragt %1</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>not polled yet</source>
        <translation>noch nicht abgefragt</translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>%n in flight</source>
        <translation>
            <numerusform>%n in Arbeit</numerusform>
            <numerusform>%n in Arbeit</numerusform>
        </translation>
    </message>
    <message>
        <location line="+11"/>
        <source>leased by %1 until %2</source>
        <translation>reserviert von %1 bis %2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>leased by %1</source>
        <translation>reserviert von %1</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>starting %1, the old engine stopped</source>
        <translation>startet %1, die alte Engine ist beendet</translation>
    </message>
    <message numerus="yes">
        <location line="+11"/>
        <source>driver %1 · %n engine(s)</source>
        <translation>
            <numerusform>Treiber %1 · %n Engine</numerusform>
            <numerusform>Treiber %1 · %n Engines</numerusform>
        </translation>
    </message>
    <message>
        <location line="+31"/>
        <source>%1 of %2 GiB</source>
        <translation>%1 von %2 GiB</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1% busy</source>
        <translation>%1 % ausgelastet</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>up to %1 °C</source>
        <translation>bis %1 °C</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>%1 °C</source>
        <translation>%1 °C</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no figures</source>
        <translation>keine Messwerte</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 GPUs: %2</source>
        <translation>%1 GPUs: %2</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>GPU: %1</source>
        <translation>GPU: %1</translation>
    </message>
    <message numerus="yes">
        <location line="-118"/>
        <source>engine %1 · switch to %2 in %3 (%n waiting)</source>
        <translation>
            <numerusform>Engine %1 · Wechsel zu %2 in %3 (%n wartet)</numerusform>
            <numerusform>Engine %1 · Wechsel zu %2 in %3 (%n warten)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>engine %1 · switch to %2 after the running requests (%n waiting)</source>
        <translation>
            <numerusform>Engine %1 · Wechsel zu %2 nach den laufenden Anfragen (%n wartet)</numerusform>
            <numerusform>Engine %1 · Wechsel zu %2 nach den laufenden Anfragen (%n warten)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>switchyard::HostFilterCombo</name>
    <message>
        <location filename="../ui/window/hostfiltercombo.cpp" line="+10"/>
        <source>Host</source>
        <translation>Host</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>All hosts</source>
        <translation>Alle Hosts</translation>
    </message>
</context>
<context>
    <name>switchyard::HostProbe</name>
    <message>
        <location filename="../src/catalog/hostprobe.cpp" line="+82"/>
        <source>the connection was refused (no server listens at that port, or a firewall says no)</source>
        <translation>die Verbindung wurde abgelehnt (kein Server lauscht an diesem Port, oder eine Firewall verweigert sie)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the host name does not resolve</source>
        <translation>der Hostname lässt sich nicht auflösen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>no connection within %1 s</source>
        <translation>keine Verbindung innerhalb von %1 s</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>it sent nothing for %1 s</source>
        <translation>er hat %1 s lang nichts gesendet</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>it closed the connection without answering</source>
        <translation>er hat die Verbindung ohne Antwort geschlossen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>it closed the connection in the middle of its answer</source>
        <translation>er hat die Verbindung mitten in seiner Antwort geschlossen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>what it answered is not HTTP</source>
        <translation>seine Antwort ist kein HTTP</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>no answer</source>
        <translation>keine Antwort</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Nothing answers at %1: %2</source>
        <translation>Unter %1 antwortet nichts: %2</translation>
    </message>
    <message>
        <location line="+5"/>
        <location line="+20"/>
        <source>The server wants an API key (it answered 401).</source>
        <translation>Der Server verlangt einen API-Schlüssel (er antwortete 401).</translation>
    </message>
    <message>
        <location line="-19"/>
        <location line="+20"/>
        <source>The server refused the API key (it answered 401).</source>
        <translation>Der Server lehnte den API-Schlüssel ab (er antwortete 401).</translation>
    </message>
    <message>
        <location line="-14"/>
        <source>%1 answers /health with HTTP %2: is it a llama.cpp server?</source>
        <translation>%1 beantwortet /health mit HTTP %2: ist das ein llama.cpp-Server?</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Its model list did not come: %1</source>
        <translation>Seine Modellliste kam nicht: %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Its model list (GET %1) answered HTTP %2.</source>
        <translation>Seine Modellliste (GET %1) antwortete mit HTTP %2.</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Its model list is not what llama.cpp sends: %1</source>
        <translation>Seine Modellliste ist nicht, was llama.cpp schickt: %1</translation>
    </message>
    <message>
        <location line="+38"/>
        <source>It answers, but lists no model.</source>
        <translation>Er antwortet, nennt aber kein Modell.</translation>
    </message>
</context>
<context>
    <name>switchyard::HostTableModel</name>
    <message>
        <location filename="../ui/models/controlleractivity.cpp" line="+32"/>
        <source>finishing %1 (since %2)</source>
        <translation>%1 läuft noch (seit %2)</translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>%n waiting since %1</source>
        <translation>
            <numerusform>%n wartet seit %1</numerusform>
            <numerusform>%n warten seit %1</numerusform>
        </translation>
    </message>
    <message>
        <location line="+4"/>
        <source>for %1</source>
        <translation>für %1</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>for %1: %2</source>
        <translation>für %1: %2</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>stopping the engine</source>
        <translation>stoppt die Engine</translation>
    </message>
    <message>
        <source>to %1</source>
        <translation type="vanished">zu %1</translation>
    </message>
    <message>
        <location line="+7"/>
        <location line="+4"/>
        <location filename="../ui/models/hosttablemodel.cpp" line="+119"/>
        <source>no engine running; the next request starts one</source>
        <translation>keine Engine läuft; die nächste Anfrage startet eine</translation>
    </message>
    <message>
        <source>engine stopped after being idle; the next request starts it</source>
        <translation type="vanished">Engine nach Untätigkeit gestoppt; die nächste Anfrage startet sie</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the next request wakes it</source>
        <translation>die nächste Anfrage weckt ihn</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the next request starts its engine</source>
        <translation>die nächste Anfrage startet seine Engine</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>waiting for the host to answer</source>
        <translation>wartet, bis der Host antwortet</translation>
    </message>
    <message>
        <location filename="../ui/models/hosttablemodel.cpp" line="+103"/>
        <source>engine %1 starting</source>
        <translation>Engine %1 startet</translation>
    </message>
    <message>
        <location line="+190"/>
        <source>waiting for first poll</source>
        <translation>wartet auf die erste Abfrage</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>up</source>
        <translation>erreichbar</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>down</source>
        <translation>nicht erreichbar</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>switching</source>
        <translation>wechselt</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>draining</source>
        <translation>läuft leer</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>leased</source>
        <translation>reserviert</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>idle</source>
        <translation>bereit</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>waking</source>
        <translation>wird geweckt</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>asleep</source>
        <translation>schläft</translation>
    </message>
    <message numerus="yes">
        <location line="+11"/>
        <source>%n waiting for engine %1</source>
        <translation>
            <numerusform>%n wartet auf Engine %1</numerusform>
            <numerusform>%n warten auf Engine %1</numerusform>
        </translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 · switch at the latest %2 (in %3)</source>
        <translation>%1 · Umschalten spätestens %2 (in %3)</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>agent speaks protocol %1; this relay %2: switching without arbitration, update the agent</source>
        <translation>Agent spricht Protokoll %1, dieses Relay %2: Umschalten ohne Abstimmung, aktualisieren Sie den Agenten</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>agent speaks protocol %1; this relay %2: update this relay</source>
        <translation>Agent spricht Protokoll %1, dieses Relay %2: aktualisieren Sie dieses Relay</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>%1 MB</source>
        <translation>%1 MB</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 GB</source>
        <translation>%1 GB</translation>
    </message>
    <message numerus="yes">
        <location line="+7"/>
        <source>prompt caches: %n saved, %1 of %2</source>
        <translation>
            <numerusform>Prompt-Caches: %n gespeichert, %1 von %2</numerusform>
            <numerusform>Prompt-Caches: %n gespeichert, %1 von %2</numerusform>
        </translation>
    </message>
    <message>
        <location line="+31"/>
        <source>down: %1</source>
        <translation>nicht erreichbar: %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>leased by %1</source>
        <translation>reserviert von %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>→ %1</source>
        <translation>→ %1</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>%1 → %2</source>
        <translation>%1 → %2</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Last error: %1</source>
        <translation>Letzter Fehler: %1</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/models/controlleractivity.cpp" line="+5"/>
        <source>%n waiting for %1</source>
        <translation>
            <numerusform>%n wartet auf %1</numerusform>
            <numerusform>%n warten auf %1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>switchyard::HostsEditorDialog</name>
    <message>
        <location filename="../ui/dialogs/hostseditordialog.cpp" line="+49"/>
        <source>Add &amp;Host</source>
        <translation>&amp;Host hinzufügen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Add &amp;Engine</source>
        <translation>&amp;Engine hinzufügen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Remove</source>
        <translation>&amp;Entfernen</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Hosts — %1</source>
        <translation>Hosts — %1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Hosts and engines</source>
        <translation>Hosts und Engines</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Save Hosts</source>
        <translation>Hosts speichern</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Saved to %1; the previous file is kept as %2.bak. The relay applies it at once, without dropping a stream.</source>
        <translation>Wird in %1 gespeichert; die vorige Datei bleibt als %2.bak erhalten. Das Relay übernimmt es sofort, ohne einen Stream abzubrechen.</translation>
    </message>
    <message>
        <location line="+45"/>
        <source>Cannot read %1: %2</source>
        <translation>%1 lässt sich nicht lesen: %2</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>%1 cannot be edited here: %2</source>
        <translation>%1 lässt sich hier nicht bearbeiten: %2</translation>
    </message>
    <message>
        <location line="+93"/>
        <source>Fix what is marked in red first</source>
        <translation>Erst beheben, was rot markiert ist</translation>
    </message>
    <message numerus="yes">
        <location line="+59"/>
        <source>and %n more change(s)</source>
        <translation>
            <numerusform>und %n weitere Änderung</numerusform>
            <numerusform>und %n weitere Änderungen</numerusform>
        </translation>
    </message>
    <message>
        <location line="+4"/>
        <source>lays the file out again: its spacing and line breaks change</source>
        <translation>ordnet die Datei neu an: Abstände und Zeilenumbrüche ändern sich</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>keeps its %n comment(s)</source>
        <translation>
            <numerusform>behält ihren %n Kommentar</numerusform>
            <numerusform>behält ihre %n Kommentare</numerusform>
        </translation>
    </message>
    <message>
        <location line="+3"/>
        <source>keeps as they are the fields this editor does not show: %1</source>
        <translation>lässt die Felder, die dieser Editor nicht zeigt, wie sie sind: %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>keeps the file as it is now in %1.bak</source>
        <translation>hebt die Datei, wie sie jetzt ist, in %1.bak auf</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 was written by hand. Saving changes:</source>
        <translation>%1 wurde von Hand geschrieben. Speichern ändert:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>and:</source>
        <translation>und:</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Nothing saved. Fix first:</source>
        <translation>Nichts gespeichert. Zuerst beheben:</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>%1 changed on disk since it was opened here; nothing was saved. Close this window and open it again to edit the new file.</source>
        <translation>%1 hat sich auf der Festplatte geändert, seit es hier geöffnet wurde; nichts wurde gespeichert. Schließen Sie dieses Fenster und öffnen Sie es erneut, um die neue Datei zu bearbeiten.</translation>
    </message>
</context>
<context>
    <name>switchyard::HostsEditorForm</name>
    <message>
        <location filename="../ui/dialogs/hostseditorform.cpp" line="+43"/>
        <source>static: the relay only forwards to a running server. local: it starts and stops llama-server on this machine. agent: through `switchyard agent` on the GPU box. command: with your own start and stop commands.</source>
        <translation>static: das Relay leitet nur an einen laufenden Server weiter. local: es startet und stoppt llama-server auf diesem Rechner. agent: über `switchyard agent` auf dem GPU-Rechner. command: mit Ihren eigenen Start- und Stoppbefehlen.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>batch (the default): the running engine keeps the host while it has work; a request for another engine waits at most the longest wait. arrival: strictly in arrival order, a switch for every change of engine</source>
        <translation>batch (die Vorgabe): Die laufende Engine behält den Host, solange sie Arbeit hat; eine Anfrage für eine andere Engine wartet höchstens die längste Wartezeit. arrival: streng in Ankunftsreihenfolge, ein Wechsel bei jedem Engine-Wechsel</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Name:</source>
        <translation>&amp;Name:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Driver:</source>
        <translation>&amp;Treiber:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;API key:</source>
        <translation>&amp;API-Schlüssel:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A&amp;gent URL:</source>
        <translation>A&amp;gent-URL:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Agent &amp;token:</source>
        <translation>Agent-&amp;Token:</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Scheduling policy:</source>
        <translation>Planungsstrategie:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Dwell after the last request (s):</source>
        <translation>Nachlauf nach der letzten Anfrage (s):</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Longest wait for a switch (s):</source>
        <translation>Längste Wartezeit auf einen Wechsel (s):</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Longest wait of a side call (s):</source>
        <translation>Längste Wartezeit einer Nebenanfrage (s):</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Prompt cache folder:</source>
        <translation>Ordner für Prompt-Caches:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Prompt cache size (MB):</source>
        <translation>Größe der Prompt-Caches (MB):</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Prompt cache save budget (s):</source>
        <translation>Zeitbudget zum Sichern der Prompt-Caches (s):</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Stop when &amp;idle after (s):</source>
        <translation>Bei &amp;Leerlauf stoppen nach (s):</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>S&amp;leep command:</source>
        <translation>&amp;Schlafbefehl:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Wake-on-LAN MAC:</source>
        <translation>&amp;Wake-on-LAN-MAC:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Wake &amp;broadcast:</source>
        <translation>Weck-&amp;Broadcast:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Wake &amp;port:</source>
        <translation>Weck-&amp;Port:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Wake time&amp;out (s):</source>
        <translation>Weck-&amp;Zeitlimit (s):</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;URL:</source>
        <translation>&amp;URL:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Models:</source>
        <translation>&amp;Modelle:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Command line:</source>
        <translation>&amp;Befehlszeile:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Start command:</source>
        <translation>&amp;Startbefehl:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>St&amp;op command:</source>
        <translation>St&amp;oppbefehl:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Start timeout (s):</source>
        <translation>Zeitlimit für den Start (s):</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Stop timeout (s):</source>
        <translation>Zeitlimit für das Stoppen (s):</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Stop when idle after (s):</source>
        <translation>Bei Leerlauf stoppen nach (s):</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>none (the engines&apos; --api-key, if they have one)</source>
        <translation>keiner (das --api-key der Engines, falls sie eines haben)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>empty: learnt from the engine (a router lists its own)</source>
        <translation>leer: von der Engine erfahren (ein Router listet seine selbst)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Model keys, separated by commas: for a single-model server or one that does not list its models</source>
        <translation>Modellschlüssel, durch Kommas getrennt: für einen Server mit einem Modell oder einen, der seine Modelle nicht auflistet</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The program and its arguments; quote an argument that has spaces</source>
        <translation>Das Programm und seine Argumente; ein Argument mit Leerzeichen in Anführungszeichen setzen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>empty: never</source>
        <translation>leer: nie</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>empty: as the host</source>
        <translation>leer: wie der Host</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Run once after an idle stop; the program and its arguments</source>
        <translation>Läuft einmal nach einem Stopp bei Leerlauf; das Programm und seine Argumente</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>empty: 20</source>
        <translation>leer: 20</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>empty: 90</source>
        <translation>leer: 90</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>empty: 30</source>
        <translation>leer: 30</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>empty: the relay&apos;s own folder (driver local) or none</source>
        <translation>leer: der eigene Ordner des Relays (Treiber local) oder keiner</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>empty: 10240</source>
        <translation>leer: 10240</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+2"/>
        <source>empty: 10</source>
        <translation>leer: 10</translation>
    </message>
    <message>
        <location line="-1"/>
        <source>empty: 120</source>
        <translation>leer: 120</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Empty: the box is not woken; the relay sends a magic packet to this MAC when a request finds the box asleep</source>
        <translation>Leer: der Rechner wird nicht geweckt; das Relay sendet ein Magic Packet an diese MAC, wenn eine Anfrage den Rechner schlafend vorfindet</translation>
    </message>
    <message>
        <location line="+122"/>
        <source>Choose a host or an engine on the left, or add one.</source>
        <translation>Wählen Sie links einen Host oder eine Engine, oder fügen Sie eine hinzu.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The first engine of a host is its default. A router lists its models itself; list them here only for a server that does not.</source>
        <translation>Die erste Engine eines Hosts ist seine Vorgabe. Ein Router listet seine Modelle selbst; führen Sie sie hier nur für einen Server auf, der das nicht tut.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The relay only forwards to a static host: scheduling, prompt caches and idle stop come with the drivers that start and stop engines. Empty fields take their defaults.</source>
        <translation>An einen statischen Host leitet das Relay nur weiter: Planung, Prompt-Caches und Stopp bei Leerlauf gibt es mit den Treibern, die Engines starten und stoppen. Leere Felder nehmen ihre Vorgaben an.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Empty fields take their defaults.</source>
        <translation>Leere Felder nehmen ihre Vorgaben an.</translation>
    </message>
    <message>
        <source>Fields a host may also have (scheduling, prompt cache, timeouts) stay as they are in the file.</source>
        <translation type="vanished">Weitere Felder eines Hosts (Planung, Prompt-Cache, Zeitlimits) bleiben, wie sie in der Datei stehen.</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>another host is called &quot;%1&quot;</source>
        <translation>ein anderer Host heißt &quot;%1&quot;</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>another engine of this host is called &quot;%1&quot;</source>
        <translation>eine andere Engine dieses Hosts heißt &quot;%1&quot;</translation>
    </message>
</context>
<context>
    <name>switchyard::HostsView</name>
    <message>
        <location filename="../ui/window/hostsview.cpp" line="+43"/>
        <source>Hosts</source>
        <translation>Hosts</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Refresh Now</source>
        <translation>Jetzt &amp;aktualisieren</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Ask the host for its models now, instead of at the next poll</source>
        <translation>Den Host jetzt nach seinen Modellen fragen statt bei der nächsten Abfrage</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Refreshing every host</source>
        <translation>Alle Hosts werden aktualisiert</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Refreshing %1</source>
        <translation>%1 wird aktualisiert</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Switch Engine…</source>
        <translation>Engine &amp;wechseln …</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Run another engine on the host: running requests finish first, new ones wait</source>
        <translation>Eine andere Engine auf dem Host starten: Laufende Anfragen werden erst beendet, neue warten</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Take Lease…</source>
        <translation>GPU &amp;reservieren …</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Take the host&apos;s GPU from the relay: running requests finish, the engine stops, model requests get 423 until you release it</source>
        <translation>Die GPU des Hosts dem Relay abnehmen: laufende Anfragen werden fertig, die Engine stoppt, Modellanfragen bekommen 423, bis Sie sie freigeben</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Re&amp;lease Lease</source>
        <translation>Reservierung &amp;freigeben</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Give the host back to the relay</source>
        <translation>Den Host dem Relay zurückgeben</translation>
    </message>
    <message>
        <location line="+6"/>
        <location line="+7"/>
        <source>%1 is back with the relay</source>
        <translation>%1 ist zurück beim Relay</translation>
    </message>
    <message>
        <location line="-6"/>
        <source>%1 was not released: %2</source>
        <translation>%1 wurde nicht freigegeben: %2</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>&amp;Copy Engine URL</source>
        <translation>Engine-URL &amp;kopieren</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&amp;Edit Host…</source>
        <translation>Host &amp;bearbeiten …</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Change the host&apos;s engines, URLs and keys in the config file</source>
        <translation>Die Engines, URLs und Schlüssel des Hosts in der Konfigurationsdatei ändern</translation>
    </message>
    <message>
        <location line="+50"/>
        <source>This host has no controller</source>
        <translation>Dieser Host hat keine Steuerung</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Select a host first</source>
        <translation>Zuerst einen Host wählen</translation>
    </message>
    <message>
        <source>Switch Engine on %1</source>
        <translation type="vanished">Engine auf %1 wechseln</translation>
    </message>
    <message>
        <source>Engine to run (running requests finish first):</source>
        <translation type="vanished">Zu startende Engine (laufende Anfragen werden erst beendet):</translation>
    </message>
    <message>
        <location line="+47"/>
        <location line="+16"/>
        <source>Switching %1 to %2…</source>
        <translation>Wechsle %1 zu %2…</translation>
    </message>
    <message>
        <location line="-13"/>
        <location line="+19"/>
        <source>%1 runs %2</source>
        <translation>%1 läuft mit %2</translation>
    </message>
    <message>
        <location line="-18"/>
        <location line="+20"/>
        <source>%1 did not switch to %2: %3</source>
        <translation>%1 hat nicht zu %2 gewechselt: %3</translation>
    </message>
    <message>
        <source>Take Lease on %1</source>
        <translation type="vanished">%1 reservieren</translation>
    </message>
    <message>
        <source>Who uses the GPU (model requests are told so):</source>
        <translation type="vanished">Wer die GPU benutzt (Modellanfragen erfahren es):</translation>
    </message>
    <message>
        <source>desktop</source>
        <translation type="vanished">Desktop</translation>
    </message>
    <message>
        <source>For how long, at most (minutes):</source>
        <translation type="vanished">Für wie lange höchstens (Minuten):</translation>
    </message>
    <message>
        <location line="+14"/>
        <location line="+15"/>
        <source>Waiting for %1 to finish its requests and stop its engine…</source>
        <translation>Warte, bis %1 seine Anfragen beendet und seine Engine gestoppt hat …</translation>
    </message>
    <message>
        <location line="-12"/>
        <location line="+16"/>
        <source>%1 is yours: its GPU is free until you release it</source>
        <translation>%1 gehört Ihnen: seine GPU ist frei, bis Sie sie freigeben</translation>
    </message>
    <message>
        <location line="-15"/>
        <location line="+19"/>
        <source>%1 was not leased: %2</source>
        <translation>%1 wurde nicht reserviert: %2</translation>
    </message>
    <message>
        <location line="-2"/>
        <source>The lease on %1 was released before it was granted</source>
        <translation>Die Reservierung von %1 wurde aufgehoben, bevor sie erteilt wurde</translation>
    </message>
    <message>
        <location line="-198"/>
        <source>Asking %1 again</source>
        <translation>Frage %1 erneut</translation>
    </message>
</context>
<context>
    <name>switchyard::LeaseDialog</name>
    <message>
        <location filename="../ui/dialogs/leasedialog.cpp" line="+15"/>
        <source>desktop</source>
        <translation>Desktop</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Take Lease on %1</source>
        <translation>%1 reservieren</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Running requests on %1 finish, then its engine stops and the GPU is yours; model requests for it are told who has it until you release it.</source>
        <translation>Laufende Anfragen auf %1 werden beendet, dann stoppt seine Engine und die GPU gehört Ihnen; Modellanfragen erfahren, wer sie hat, bis Sie sie freigeben.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Who uses the GPU: clients read it in their 423 answer</source>
        <translation>Wer die GPU benutzt: Clients lesen es in ihrer 423-Antwort</translation>
    </message>
    <message>
        <location line="+4"/>
        <source> min</source>
        <translation> min</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The lease ends by itself after this, if you do not release it first</source>
        <translation>Danach endet die Reservierung von selbst, wenn Sie sie nicht vorher freigeben</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Used by:</source>
        <translation>&amp;Benutzt von:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>For at &amp;most:</source>
        <translation>&amp;Höchstens für:</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Take Lease</source>
        <translation>&amp;Reservieren</translation>
    </message>
</context>
<context>
    <name>switchyard::LocalDriver</name>
    <message>
        <source>host %1: %2</source>
        <translation type="vanished">Host %1: %2</translation>
    </message>
</context>
<context>
    <name>switchyard::MainWindow</name>
    <message>
        <location filename="../ui/window/mainwindow.cpp" line="+78"/>
        <source>Switchyard</source>
        <translation>Switchyard</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Models</source>
        <translation>Modelle</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Requests</source>
        <translation>Anfragen</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Hosts</source>
        <translation>Hosts</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Switch timeline</source>
        <translation>Wechsel-Zeitleiste</translation>
    </message>
    <message>
        <location line="+92"/>
        <source>&amp;Relay</source>
        <translation>&amp;Relay</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Copy Endpoint URL</source>
        <translation>Endpunkt-URL &amp;kopieren</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Copied %1</source>
        <translation>%1 kopiert</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Export Client Config…</source>
        <translation>Client-Konfiguration &amp;exportieren…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>opencode, Claude Code or pi settings that point at this relay</source>
        <translation>Einstellungen für opencode, Claude Code oder pi, die auf dieses Relay zeigen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Reload Config</source>
        <translation>Konfiguration &amp;neu laden</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Settings…</source>
        <translation>&amp;Einstellungen …</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&amp;Hosts</source>
        <translation>&amp;Hosts</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>E&amp;dit Hosts…</source>
        <translation>Hosts &amp;bearbeiten …</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Add, change or remove hosts and their engines in the config file</source>
        <translation>Hosts und ihre Engines in der Konfigurationsdatei hinzufügen, ändern oder entfernen</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+5"/>
        <source>&amp;Models</source>
        <translation>&amp;Modelle</translation>
    </message>
    <message>
        <location line="-1"/>
        <source>&amp;View</source>
        <translation>&amp;Ansicht</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Requests</source>
        <translation>An&amp;fragen</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Timeline Zoom &amp;In</source>
        <translation>Zeitleiste ver&amp;größern</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Timeline Zoom &amp;Out</source>
        <translation>Zeitleiste ver&amp;kleinern</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Timeline Follows &amp;Now</source>
        <translation>Zeitleiste folgt der &amp;Gegenwart</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;About Switchyard</source>
        <translation>&amp;Über Switchyard</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>About Switchyard</source>
        <translation>Über Switchyard</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&lt;h3&gt;Switchyard %1&lt;/h3&gt;&lt;p&gt;One LAN endpoint in front of several llama.cpp GPU boxes.&lt;/p&gt;&lt;p&gt;Clients address models as &lt;i&gt;host-key&lt;/i&gt;; Switchyard switches engines without cutting a stream and answers in each client&apos;s own language when it cannot serve.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Switchyard %1&lt;/h3&gt;&lt;p&gt;Ein Endpunkt im LAN vor mehreren llama.cpp-GPU-Rechnern.&lt;/p&gt;&lt;p&gt;Clients sprechen Modelle als &lt;i&gt;host-key&lt;/i&gt; an; Switchyard wechselt Engines, ohne einen Stream abzubrechen, und antwortet in der Sprache des jeweiligen Clients, wenn es nicht bedienen kann.&lt;/p&gt;</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>Switchyard — watching %1</source>
        <translation>Switchyard — beobachtet %1</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>Switchyard — Demo fleet — %1</source>
        <translation>Switchyard — Demo-Flotte — %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Switchyard — %1</source>
        <translation>Switchyard — %1</translation>
    </message>
    <message>
        <location line="+64"/>
        <source>Watching the relay at &lt;b&gt;%1&lt;/b&gt;</source>
        <translation>Beobachtet das Relay unter &lt;b&gt;%1&lt;/b&gt;</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Watching the relay at &lt;b&gt;%1&lt;/b&gt;: %2</source>
        <translation>Beobachtet das Relay unter &lt;b&gt;%1&lt;/b&gt;: %2</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>not listening</source>
        <translation>nicht erreichbar</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Listening on &lt;b&gt;%1&lt;/b&gt;</source>
        <translation>Erreichbar unter &lt;b&gt;%1&lt;/b&gt;</translation>
    </message>
    <message numerus="yes">
        <source>%1 of %n host(s) up</source>
        <translation type="vanished">
            <numerusform>%1 von %n Host erreichbar</numerusform>
            <numerusform>%1 von %n Hosts erreichbar</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n leased</source>
        <translation type="vanished">
            <numerusform>%n reserviert</numerusform>
            <numerusform>%n reserviert</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+6"/>
        <source>%n request(s) in flight</source>
        <translation>
            <numerusform>%n Anfrage in Arbeit</numerusform>
            <numerusform>%n Anfragen in Arbeit</numerusform>
        </translation>
    </message>
    <message>
        <location line="+3"/>
        <source>No hosts configured: choose a config file in Settings</source>
        <translation>Keine Hosts konfiguriert: in den Einstellungen eine Konfigurationsdatei wählen</translation>
    </message>
    <message numerus="yes">
        <source>%1 of %n up</source>
        <translation type="vanished">
            <numerusform>%1 von %n erreichbar</numerusform>
            <numerusform>%1 von %n erreichbar</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+4"/>
        <source>%n in flight</source>
        <translation>
            <numerusform>%n in Arbeit</numerusform>
            <numerusform>%n in Arbeit</numerusform>
        </translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Models (%1)</source>
        <translation>Modelle (%1)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Requests (%1)</source>
        <translation>Anfragen (%1)</translation>
    </message>
</context>
<context>
    <name>switchyard::ModelTableModel</name>
    <message>
        <location filename="../ui/models/modeltablemodel.cpp" line="+234"/>
        <source>loaded</source>
        <translation>geladen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>loading</source>
        <translation>lädt</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>unloaded</source>
        <translation>entladen</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>asleep</source>
        <translation>schläft</translation>
    </message>
    <message>
        <location line="-2"/>
        <source>sleeping</source>
        <translation>schläft</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>failed</source>
        <translation>fehlgeschlagen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>unknown</source>
        <translation>unbekannt</translation>
    </message>
    <message>
        <location line="+111"/>
        <source>The last load failed (exit code %1)</source>
        <translation>Das letzte Laden ist fehlgeschlagen (Exit-Code %1)</translation>
    </message>
    <message numerus="yes">
        <location line="+6"/>
        <source>%n request(s) today, %1 failed</source>
        <translation>
            <numerusform>%n Anfrage heute, %1 fehlgeschlagen</numerusform>
            <numerusform>%n Anfragen heute, %1 fehlgeschlagen</numerusform>
        </translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Median time to first byte today: %1 ms</source>
        <translation>Median der Zeit bis zum ersten Byte heute: %1 ms</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Clients ask for &quot;%1&quot;; each request goes to the best of its replicas: %2</source>
        <translation>Clients fragen nach „%1“; jede Anfrage geht an die beste seiner Repliken: %2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Clients ask for &quot;%1&quot;; host %2 serves it as &quot;%3&quot;</source>
        <translation>Clients fragen nach &quot;%1&quot;; Host %2 bedient es als &quot;%3&quot;</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Replicated on %1 hosts</source>
        <translation>Repliziert auf %1 Hosts</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>Context size in tokens, as the engine reports it</source>
        <translation>Kontextgröße in Tokens, wie die Engine sie meldet</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Requests since midnight</source>
        <translation>Anfragen seit Mitternacht</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Median generation speed of today&apos;s streamed answers</source>
        <translation>Median der Generierungsgeschwindigkeit der heute gestreamten Antworten</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Alias</source>
        <translation>Alias</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Host</source>
        <translation>Host</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Engine</source>
        <translation>Engine</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Context</source>
        <translation>Kontext</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Last used</source>
        <translation>Zuletzt benutzt</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Today</source>
        <translation>Heute</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tokens/s</source>
        <translation>Tokens/s</translation>
    </message>
</context>
<context>
    <name>switchyard::ModelsView</name>
    <message>
        <location filename="../ui/window/modelsview.cpp" line="+34"/>
        <source>Loaded only</source>
        <translation>Nur geladene</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Filter models…</source>
        <translation>Modelle filtern …</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Filter models</source>
        <translation>Modelle filtern</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>&amp;Load</source>
        <translation>&amp;Laden</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Load the selected model on its host (POST /models/load)</source>
        <translation>Das gewählte Modell auf seinem Host laden (POST /models/load)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Unload</source>
        <translation>&amp;Entladen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Unload the selected model and free its memory (POST /models/unload)</source>
        <translation>Das gewählte Modell entladen und seinen Speicher freigeben (POST /models/unload)</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Loading %1…</source>
        <translation>%1 wird geladen …</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Unloading %1…</source>
        <translation>%1 wird entladen …</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1: load accepted</source>
        <translation>%1: Laden angenommen</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>%1: unloaded</source>
        <translation>%1: entladen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1: load refused: %2</source>
        <translation>%1: Laden abgelehnt: %2</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>%1: unload refused: %2</source>
        <translation>%1: Entladen abgelehnt: %2</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>Context</source>
        <translation>Kontext</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Tokens/s</source>
        <translation>Tokens/s</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Models</source>
        <translation>Modelle</translation>
    </message>
</context>
<context>
    <name>switchyard::NoticeBar</name>
    <message>
        <location filename="../ui/window/noticebar.cpp" line="+24"/>
        <source>Close this message</source>
        <translation>Diese Meldung schließen</translation>
    </message>
</context>
<context>
    <name>switchyard::OpencodeExport</name>
    <message>
        <location filename="../src/export/opencodeexport.cpp" line="+82"/>
        <source>the relay lists no models</source>
        <translation>das Relay führt keine Modelle</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>unknown model %1; known: %2</source>
        <translation>unbekanntes Modell %1; bekannt: %2</translation>
    </message>
    <message>
        <location line="+38"/>
        <source>Switchyard (%1)</source>
        <translation>Switchyard (%1)</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>%1:%2: not valid JSON (%3); nothing was changed</source>
        <translation>%1:%2: kein gültiges JSON (%3); nichts wurde geändert</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>comments (JSONC) cannot be merged: remove them, or add the provider by hand from `switchyard export opencode`</source>
        <translation>Kommentare (JSONC) lassen sich nicht zusammenführen: sie entfernen oder den Provider von Hand aus `switchyard export opencode` einfügen</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1:%2: expected a JSON object at the top; nothing was changed</source>
        <translation>%1:%2: oben ein JSON-Objekt erwartet; nichts wurde geändert</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1:%2: &quot;provider&quot; is not an object; nothing was changed</source>
        <translation>%1:%2: &quot;provider&quot; ist kein Objekt; nichts wurde geändert</translation>
    </message>
</context>
<context>
    <name>switchyard::RelayClient</name>
    <message>
        <location filename="../ui/window/relayclient.cpp" line="+36"/>
        <location line="+33"/>
        <source>HTTP %1</source>
        <translation>HTTP %1</translation>
    </message>
</context>
<context>
    <name>switchyard::RelayRunner</name>
    <message>
        <location filename="../src/app/relayrunner.cpp" line="+84"/>
        <source>the running relay could not listen again on %1:%2 either: %3</source>
        <translation>das laufende Relay konnte auch nicht wieder auf %1:%2 lauschen: %3</translation>
    </message>
</context>
<context>
    <name>switchyard::RelayService</name>
    <message>
        <location filename="../src/app/relayservice.cpp" line="+164"/>
        <source>cannot serve HTTPS: %1</source>
        <translation>HTTPS nicht möglich: %1</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>cannot listen on %1:%2: %3</source>
        <translation>auf %1:%2 lässt sich nicht lauschen: %3</translation>
    </message>
</context>
<context>
    <name>switchyard::RemoteEventStream</name>
    <message>
        <location filename="../src/app/remoteeventstream.cpp" line="+146"/>
        <source>the relay ended the live events</source>
        <translation>das Relay hat die Live-Ereignisse beendet</translation>
    </message>
    <message>
        <location line="+8"/>
        <location line="+2"/>
        <location line="+1"/>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
</context>
<context>
    <name>switchyard::RemoteRelayFeed</name>
    <message>
        <location filename="../src/app/remoterelayfeed.cpp" line="+96"/>
        <source>live</source>
        <translation>live</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>polling every %1 s: this relay sends no live events (a version before them); asking again in %2 s</source>
        <translation>fragt alle %1 s ab: dieses Relay sendet keine Live-Ereignisse (eine ältere Version); erneuter Versuch in %2 s</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>polling every %1 s: the relay refused its live events (%2)</source>
        <translation>fragt alle %1 s ab: das Relay hat die Live-Ereignisse verweigert (%2)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>polling every %1 s: the live events stopped (%2); trying again in %3 s</source>
        <translation>fragt alle %1 s ab: die Live-Ereignisse sind abgebrochen (%2); erneuter Versuch in %3 s</translation>
    </message>
    <message>
        <location line="+107"/>
        <source>%1: the relay refused the admin token: %2</source>
        <translation>%1: das Relay hat das Admin-Token abgelehnt: %2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1 answered with something that is not JSON</source>
        <translation>%1 hat mit etwas geantwortet, das kein JSON ist</translation>
    </message>
</context>
<context>
    <name>switchyard::RequestDetailsPane</name>
    <message>
        <location filename="../ui/window/requestdetailspane.cpp" line="+26"/>
        <source>Select a request to see its details.</source>
        <translation>Eine Anfrage wählen, um ihre Einzelheiten zu sehen.</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Started</source>
        <translation>Begonnen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Served by</source>
        <translation>Bedient von</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Duration</source>
        <translation>Dauer</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Waited</source>
        <translation>Gewartet</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Waiting</source>
        <translation>Wartet</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>First byte</source>
        <translation>Erstes Byte</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Prompt cache</source>
        <translation>Prompt-Cache</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tokens</source>
        <translation>Tokens</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Sent</source>
        <translation>Gesendet</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Received</source>
        <translation>Empfangen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Client</source>
        <translation>Client</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>App</source>
        <translation>Programm</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>User agent</source>
        <translation>User-Agent</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Relay error</source>
        <translation>Relay-Fehler</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>This request as the journal writes it</source>
        <translation>Diese Anfrage, wie das Journal sie schreibt</translation>
    </message>
    <message>
        <location line="+73"/>
        <source>no answer (client went away)</source>
        <translation>keine Antwort (Client ist gegangen)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>aborted by the client after %1</source>
        <translation>vom Client abgebrochen nach %1</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>aborted by the client before an answer</source>
        <translation>vom Client vor einer Antwort abgebrochen</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the relay itself</source>
        <translation>das Relay selbst</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>host %1</source>
        <translation>Host %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>host %1, engine %2</source>
        <translation>Host %1, Engine %2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 so far</source>
        <translation>%1 bisher</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+6"/>
        <location line="+2"/>
        <location line="+5"/>
        <location line="+1"/>
        <location line="+10"/>
        <location line="+3"/>
        <source>—</source>
        <translation>—</translation>
    </message>
    <message>
        <location line="-25"/>
        <source>%1 for %2</source>
        <translation>%1 wegen %2</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>served from a restored cache (%1 tokens restored before it went out)</source>
        <translation>aus einem wiederhergestellten Cache bedient (%1 Tokens vor dem Weiterleiten wiederhergestellt)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1 at %2 tokens/s</source>
        <translation>%1 mit %2 Tokens/s</translation>
    </message>
</context>
<context>
    <name>switchyard::RequestLogModel</name>
    <message>
        <location filename="../src/store/requestlogmodel.cpp" line="+241"/>
        <source>aborted</source>
        <translation>abgebrochen</translation>
    </message>
    <message>
        <location line="+6"/>
        <location line="+134"/>
        <source>—</source>
        <translation>—</translation>
    </message>
    <message>
        <location line="-119"/>
        <source>Claude Code</source>
        <translation>Claude Code</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>opencode</source>
        <translation>opencode</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>pi</source>
        <translation>pi</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Codex</source>
        <translation>Codex</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cline</source>
        <translation>Cline</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Qwen Code</source>
        <translation>Qwen Code</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>OpenAI SDK (JavaScript)</source>
        <translation>OpenAI-SDK (JavaScript)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>OpenAI SDK (Python)</source>
        <translation>OpenAI-SDK (Python)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Anthropic SDK (JavaScript)</source>
        <translation>Anthropic-SDK (JavaScript)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Anthropic SDK (Python)</source>
        <translation>Anthropic-SDK (Python)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>curl</source>
        <translation>curl</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>browser</source>
        <translation>Browser</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>other</source>
        <translation>andere</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1 µs</source>
        <translation>%1 µs</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+2"/>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+2"/>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 min %2 s</source>
        <translation>%1 min %2 s</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 h %2 min</source>
        <translation>%1 h %2 min</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>switch to %1</source>
        <translation>Wechsel zu %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>switch %1→%2</source>
        <translation>Wechsel %1→%2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>model loading</source>
        <translation>Modell lädt</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>queue</source>
        <translation>Warteschlange</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>lease</source>
        <translation>Reservierung</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>host check</source>
        <translation>Host-Prüfung</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>host wake-up</source>
        <translation>Aufwecken des Hosts</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>received</source>
        <translation>angekommen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>waiting</source>
        <translation>wartet</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>waiting: %1</source>
        <translation>wartet: %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>sent</source>
        <translation>gesendet</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>streaming</source>
        <translation>streamt</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>%1 · at the latest %2</source>
        <translation>%1 · spätestens %2</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>waits</source>
        <translation>wartet</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>waits for engine %1</source>
        <translation>wartet auf Engine %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>waits for its model to load</source>
        <translation>wartet, bis sein Modell geladen ist</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>waits for its turn on the host</source>
        <translation>wartet, bis es auf dem Host an der Reihe ist</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>waits for the host&apos;s lease to end</source>
        <translation>wartet auf das Ende der Reservierung des Hosts</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>waits for a second look at the host</source>
        <translation>wartet auf eine zweite Prüfung des Hosts</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>waits for the host to wake</source>
        <translation>wartet, bis der Host aufwacht</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>in %1 s</source>
        <translation>in %1 s</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>in %1</source>
        <translation>in %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 · switch at the latest %2 (%3)</source>
        <translation>%1 · Umschalten spätestens %2 (%3)</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>%1 tokens</source>
        <translation>%1 Tokens</translation>
    </message>
    <message>
        <location line="+71"/>
        <source>Time</source>
        <translation>Zeit</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Method</source>
        <translation>Methode</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Path</source>
        <translation>Pfad</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Alias</source>
        <translation>Alias</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Host</source>
        <translation>Host</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Duration</source>
        <translation>Dauer</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>First byte</source>
        <translation>Erstes Byte</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tokens/s</source>
        <translation>Tokens/s</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Client</source>
        <translation>Client</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>App</source>
        <translation>Programm</translation>
    </message>
</context>
<context>
    <name>switchyard::RequestLogView</name>
    <message>
        <location filename="../ui/window/requestlogview.cpp" line="+47"/>
        <source>Switchyard&apos;s own</source>
        <translation>Von Switchyard selbst</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Search path, client, error…</source>
        <translation>Pfad, Client, Fehler …</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Search requests</source>
        <translation>Anfragen durchsuchen</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Model</source>
        <translation>Modell</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>All models</source>
        <translation>Alle Modelle</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Any status</source>
        <translation>Jeder Status</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Succeeded</source>
        <translation>Erfolgreich</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Failed (any)</source>
        <translation>Fehlgeschlagen (alle)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Client errors (4xx)</source>
        <translation>Client-Fehler (4xx)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Errors (5xx, relay)</source>
        <translation>Fehler (5xx, Relay)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Show the requests this window makes itself: its loads and the model list of an export</source>
        <translation>Die Anfragen zeigen, die dieses Fenster selbst stellt: seine Ladevorgänge und die Modellliste eines Exports</translation>
    </message>
    <message>
        <source>First byte</source>
        <translation type="vanished">Erstes Byte</translation>
    </message>
    <message>
        <source>Tokens/s</source>
        <translation type="vanished">Tokens/s</translation>
    </message>
    <message>
        <source>Claude Code</source>
        <translation type="vanished">Claude Code</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>Requests</source>
        <translation>Anfragen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Copy as Journal Line</source>
        <translation>Als Journal&amp;zeile kopieren</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Copy the selected requests as the journal writes them</source>
        <translation>Die gewählten Anfragen so kopieren, wie das Journal sie schreibt</translation>
    </message>
    <message numerus="yes">
        <location line="+7"/>
        <source>Copied %n journal line(s)</source>
        <translation>
            <numerusform>%n Journalzeile kopiert</numerusform>
            <numerusform>%n Journalzeilen kopiert</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+132"/>
        <source>%n request(s)</source>
        <translation>
            <numerusform>%n Anfrage</numerusform>
            <numerusform>%n Anfragen</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>%1 of %n request(s)</source>
        <translation>
            <numerusform>%1 von %n Anfrage</numerusform>
            <numerusform>%1 von %n Anfragen</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>switchyard::SettingsDialog</name>
    <message>
        <location filename="../ui/dialogs/settingsdialog.cpp" line="+41"/>
        <source> s</source>
        <translation> s</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>as in the config</source>
        <translation>wie in der Konfiguration</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Start Switchyard in the tray when I log in</source>
        <translation>Switchyard bei der Anmeldung in der Systemleiste starten</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Edit Hosts…</source>
        <translation>Hosts &amp;bearbeiten …</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Run the relay here</source>
        <translation>Relay &amp;hier ausführen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Wat&amp;ch the relay at:</source>
        <translation>Relay &amp;beobachten unter:</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Switchyard Settings</source>
        <translation>Switchyard-Einstellungen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>from the config file, else 127.0.0.1:18766</source>
        <translation>aus der Konfigurationsdatei, sonst 127.0.0.1:18766</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>HOST:PORT, e.g. 0.0.0.0:18766 for the whole LAN, 127.0.0.1:18766 for this machine only</source>
        <translation>HOST:PORT, z. B. 0.0.0.0:18766 für das ganze LAN, 127.0.0.1:18766 nur für diesen Rechner</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>none: hosts come from --upstream</source>
        <translation>keine: Hosts kommen aus --upstream</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the default folder</source>
        <translation>der Standardordner</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A streaming request that waits this long (for a switch or a load) gets the relay&apos;s own 200 and keep-alive comments, so clients do not time out</source>
        <translation>Eine streamende Anfrage, die so lange wartet (auf einen Wechsel oder ein Laden), bekommt die eigene 200 des Relays und Keep-alive-Kommentare, damit Clients nicht in eine Zeitüberschreitung laufen</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>How often a waiting stream gets a comment saying what it waits for</source>
        <translation>Wie oft ein wartender Stream einen Kommentar bekommt, der sagt, worauf er wartet</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>http://gpu-server.lan:18766</source>
        <translation>http://gpu-server.lan:18766</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>its admin token (none: it must be this machine)</source>
        <translation>sein Admin-Token (ohne: nur auf diesem Rechner)</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Admin &amp;token:</source>
        <translation>Admin-&amp;Token:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Listen on:</source>
        <translation>&amp;Erreichbar unter:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Config file:</source>
        <translation>&amp;Konfigurationsdatei:</translation>
    </message>
    <message>
        <location line="+0"/>
        <location line="+12"/>
        <source>Browse…</source>
        <translation>Durchsuchen …</translation>
    </message>
    <message>
        <location line="-11"/>
        <source>Config File</source>
        <translation>Konfigurationsdatei</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Switchyard config (*.json);;All files (*)</source>
        <translation>Switchyard-Konfiguration (*.json);;Alle Dateien (*)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Add, change or remove the config file&apos;s hosts and their engines</source>
        <translation>Die Hosts der Konfigurationsdatei und ihre Engines hinzufügen, ändern oder entfernen</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Hosts:</source>
        <translation>Hosts:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Data folder:</source>
        <translation>&amp;Datenordner:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Data Folder</source>
        <translation>Datenordner</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&amp;Answer a waiting stream after:</source>
        <translation>Wartendem Stream &amp;antworten nach:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Then tell it it still &amp;waits every:</source>
        <translation>Danach „&amp;wartet noch“ melden alle:</translation>
    </message>
    <message>
        <source>Early &amp;200 after:</source>
        <translation type="vanished">Frühe &amp;200 nach:</translation>
    </message>
    <message>
        <source>Waiting co&amp;mment every:</source>
        <translation type="vanished">Warte&amp;kommentar alle:</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Changes apply at once, without dropping a stream; the data folder at the next start. These settings are for the window and the tray; --headless reads only its command line and config file.</source>
        <translation>Änderungen gelten sofort, ohne einen Stream abzubrechen; der Datenordner ab dem nächsten Start. Diese Einstellungen gelten für das Fenster und die Systemleiste; --headless liest nur seine Befehlszeile und seine Konfigurationsdatei.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>This session was started with %1, which wins over these settings until it is started without.</source>
        <translation>Diese Sitzung wurde mit %1 gestartet; das hat Vorrang vor diesen Einstellungen, bis ohne gestartet wird.</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>empty: from the config file (now %1)</source>
        <translation>leer: aus der Konfigurationsdatei (jetzt %1)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The relay listens on %1 now.</source>
        <translation>Das Relay ist jetzt unter %1 erreichbar.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>none: this session runs the demo fleet</source>
        <translation>keine: diese Sitzung läuft mit der Demo-Flotte</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Listen on: %1</source>
        <translation>Erreichbar unter: %1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Watch the relay at: expected a URL such as http://gpu-server.lan:18766, not &quot;%1&quot;</source>
        <translation>Relay beobachten unter: eine URL wie http://gpu-server.lan:18766 erwartet, nicht &quot;%1&quot;</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>%1 could not be read</source>
        <translation>%1 ließ sich nicht lesen</translation>
    </message>
    <message>
        <location line="-100"/>
        <source>Kept in a file of its own that only you can read, not in the settings file</source>
        <translation>In einer eigenen Datei, die nur Sie lesen können, nicht in der Einstellungsdatei</translation>
    </message>
    <message>
        <location line="+126"/>
        <source>The admin token could not be saved: %1</source>
        <translation>Das Admin-Token konnte nicht gespeichert werden: %1</translation>
    </message>
</context>
<context>
    <name>switchyard::ShellCommand</name>
    <message>
        <source>cannot run /bin/sh: %1</source>
        <translation type="vanished">/bin/sh lässt sich nicht ausführen: %1</translation>
    </message>
</context>
<context>
    <name>switchyard::StaticDriver</name>
    <message>
        <source>host %1 is static: it runs engine %2 and never switches</source>
        <translation type="vanished">Host %1 ist statisch: er betreibt Engine %2 und wechselt nie</translation>
    </message>
    <message>
        <source>host %1 is static: engine %2 is not stopped</source>
        <translation type="vanished">Host %1 ist statisch: Engine %2 wird nicht gestoppt</translation>
    </message>
</context>
<context>
    <name>switchyard::SwitchEngineDialog</name>
    <message>
        <location filename="../ui/dialogs/switchenginedialog.cpp" line="+20"/>
        <source>Switch Engine on %1</source>
        <translation>Engine auf %1 wechseln</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>No engine runs on %1 now. Running requests finish first; new ones wait for the switch.</source>
        <translation>Auf %1 läuft gerade keine Engine. Laufende Anfragen werden erst beendet; neue warten auf den Wechsel.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 runs %2 now. Running requests finish first; new ones wait for the switch.</source>
        <translation>Auf %1 läuft jetzt %2. Laufende Anfragen werden erst beendet; neue warten auf den Wechsel.</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>models not known yet (it has not run)</source>
        <translation>Modelle noch unbekannt (sie lief noch nicht)</translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>%n model(s): %1</source>
        <translation>
            <numerusform>%n Modell: %1</numerusform>
            <numerusform>%n Modelle: %1</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 (running now)</source>
        <translation>%1 (läuft jetzt)</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>&amp;Switch</source>
        <translation>&amp;Wechseln</translation>
    </message>
</context>
<context>
    <name>switchyard::TimelineModel</name>
    <message>
        <location filename="../src/store/timelinemodel.cpp" line="+153"/>
        <source>switching</source>
        <translation>Wechsel</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>engine up</source>
        <translation>Engine läuft</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>switch failed</source>
        <translation>Wechsel fehlgeschlagen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>model loaded</source>
        <translation>Modell geladen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>model unloaded</source>
        <translation>Modell entladen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>lease taken</source>
        <translation>Reservierung übernommen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>lease released</source>
        <translation>Reservierung freigegeben</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>host up</source>
        <translation>Host erreichbar</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>host down</source>
        <translation>Host nicht erreichbar</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>failover</source>
        <translation>Failover</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>prompt cache saved</source>
        <translation>Prompt-Cache gespeichert</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>prompt cache restored</source>
        <translation>Prompt-Cache wiederhergestellt</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>waking</source>
        <translation>wird geweckt</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>awake</source>
        <translation>wach</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>did not wake</source>
        <translation>nicht aufgewacht</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>idle stop</source>
        <translation>Stopp wegen Untätigkeit</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>asleep</source>
        <translation>schläft</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Switchyard started</source>
        <translation>Switchyard gestartet</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Switchyard stopped</source>
        <translation>Switchyard beendet</translation>
    </message>
    <message>
        <location line="+76"/>
        <source>Time</source>
        <translation>Zeit</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Host</source>
        <translation>Host</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Event</source>
        <translation>Ereignis</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Engine</source>
        <translation>Engine</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Model</source>
        <translation>Modell</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Duration</source>
        <translation>Dauer</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Detail</source>
        <translation>Einzelheit</translation>
    </message>
</context>
<context>
    <name>switchyard::TimelineView</name>
    <message>
        <location filename="../ui/timeline/timelineview.cpp" line="+79"/>
        <source>5 min</source>
        <translation>5 min</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>1 h</source>
        <translation>1 h</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>24 h</source>
        <translation>24 h</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Show the last %1</source>
        <translation>Die letzten %1 zeigen</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Zoom in (+, or the mouse wheel)</source>
        <translation>Vergrößern (+ oder Mausrad)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Zoom out (-, or the mouse wheel)</source>
        <translation>Verkleinern (- oder Mausrad)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Now</source>
        <translation>Jetzt</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Follow the present (End, or double-click the timeline)</source>
        <translation>Der Gegenwart folgen (Ende oder Doppelklick auf die Zeitleiste)</translation>
    </message>
    <message>
        <location line="+96"/>
        <source>engine up</source>
        <translation>Engine läuft</translation>
    </message>
    <message>
        <location line="+12"/>
        <location line="+1"/>
        <source>engines:</source>
        <translation>Engines:</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>switch</source>
        <translation>Wechsel</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>down or failed</source>
        <translation>nicht erreichbar oder fehlgeschlagen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>asleep</source>
        <translation>schläft</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>load</source>
        <translation>Laden</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>unload</source>
        <translation>Entladen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>lease</source>
        <translation>Reservierung</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Switchyard not running</source>
        <translation>Switchyard lief nicht</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>requests</source>
        <translation>Anfragen</translation>
    </message>
</context>
<context>
    <name>switchyard::TimelineWidget</name>
    <message>
        <location filename="../ui/timeline/timelinewidget.cpp" line="+68"/>
        <source>Switch timeline</source>
        <translation>Wechsel-Zeitleiste</translation>
    </message>
    <message>
        <location line="+203"/>
        <source>No hosts configured</source>
        <translation>Keine Hosts konfiguriert</translation>
    </message>
    <message>
        <source>last %1</source>
        <translation type="vanished">letzte %1</translation>
    </message>
    <message>
        <location line="+84"/>
        <source>requests</source>
        <translation>Anfragen</translation>
    </message>
    <message>
        <location line="+42"/>
        <source>asleep</source>
        <translation>schläft</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>not running</source>
        <translation>läuft nicht</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>no engine history in this range</source>
        <translation>kein Engine-Verlauf in diesem Zeitraum</translation>
    </message>
</context>
<context>
    <name>switchyard::TrayController</name>
    <message>
        <location filename="../ui/tray/traycontroller.cpp" line="+26"/>
        <source>&amp;Open Switchyard</source>
        <translation>Switchyard ö&amp;ffnen</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Hosts</source>
        <translation>Hosts</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>No hosts configured</source>
        <translation>Keine Hosts konfiguriert</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Copy Endpoint URL</source>
        <translation>Endpunkt-URL &amp;kopieren</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Endpoint copied</source>
        <translation>Endpunkt kopiert</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>%1 is on the clipboard.</source>
        <translation>%1 liegt in der Zwischenablage.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Export Client Config</source>
        <translation>Client-Konfiguration e&amp;xportieren</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Copy the config to the clipboard</source>
        <translation>Die Konfiguration in die Zwischenablage kopieren</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Preview, Save or Merge…</source>
        <translation>&amp;Vorschau, Speichern oder Einfügen…</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Client config copied</source>
        <translation>Client-Konfiguration kopiert</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>The %1 config is on the clipboard.</source>
        <translation>Die Konfiguration für %1 liegt in der Zwischenablage.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Export failed</source>
        <translation>Export fehlgeschlagen</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Settings…</source>
        <translation>&amp;Einstellungen …</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Quit Switchyard</source>
        <translation>Switchyard &amp;beenden</translation>
    </message>
    <message numerus="yes">
        <location line="+74"/>
        <source>Switchyard — %1
%2, %n in flight
%3</source>
        <translation>
            <numerusform>Switchyard — %1
%2, %n in Arbeit
%3</numerusform>
            <numerusform>Switchyard — %1
%2, %n in Arbeit
%3</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Switchyard — %1
%2 of %n host(s) up, %3 in flight
%4</source>
        <translation type="vanished">
            <numerusform>Switchyard — %1
%2 von %n Host erreichbar, %3 in Arbeit
%4</numerusform>
            <numerusform>Switchyard — %1
%2 von %n Hosts erreichbar, %3 in Arbeit
%4</numerusform>
        </translation>
    </message>
    <message>
        <location line="+39"/>
        <source>%1 — %2, %3</source>
        <translation>%1 — %2, %3</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 — leased by %2</source>
        <translation>%1 — reserviert von %2</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n in flight</source>
        <translation>
            <numerusform>%n in Arbeit</numerusform>
            <numerusform>%n in Arbeit</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>switchyard::WelcomeDialog</name>
    <message>
        <location filename="../ui/dialogs/welcomedialog.cpp" line="+18"/>
        <source>&amp;Add a GPU Box…</source>
        <translation>GPU-Rechner &amp;hinzufügen …</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Try the Demo Fleet</source>
        <translation>&amp;Demo-Flotte ausprobieren</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Switchyard: Welcome</source>
        <translation>Switchyard: Willkommen</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Welcome to Switchyard</source>
        <translation>Willkommen bei Switchyard</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Switchyard puts your llama.cpp GPU boxes behind one address for your coding tools, and switches each box to the model a request asks for.

Start by adding a box: its address is enough. Or look around first with a demo fleet of pretend boxes; nothing is saved.</source>
        <translation>Switchyard stellt Ihre llama.cpp-GPU-Rechner unter einer Adresse für Ihre Coding-Werkzeuge bereit und schaltet jeden Rechner auf das Modell um, das eine Anfrage verlangt.

Fangen Sie mit einem Rechner an: seine Adresse genügt. Oder sehen Sie sich erst in einer Demo-Flotte aus vorgetäuschten Rechnern um; dabei wird nichts gespeichert.</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The address of llama-server on the box; Switchyard checks it before saving</source>
        <translation>Die Adresse von llama-server auf dem Rechner; Switchyard prüft sie vor dem Speichern</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Fake boxes on this machine, with pretend traffic</source>
        <translation>Vorgetäuschte Rechner auf diesem Computer, mit vorgetäuschtem Verkehr</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Quit Switchyard; it welcomes you again at its next start, until a box is added</source>
        <translation>Switchyard beenden; beim nächsten Start begrüßt es Sie wieder, bis ein Rechner hinzugefügt ist</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Quit closes Switchyard. It shows this welcome again at its next start, until a box is added.</source>
        <translation>Beenden schließt Switchyard. Beim nächsten Start erscheint diese Begrüßung wieder, bis ein Rechner hinzugefügt ist.</translation>
    </message>
</context>
</TS>
