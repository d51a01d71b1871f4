<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>CheckConfig</name>
    <message>
        <location filename="../src/config/checkconfig.cpp" line="18"/>
        <source>warning: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <location filename="../src/config/checkconfig.cpp" line="36"/>
        <source>%n host</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../src/config/checkconfig.cpp" line="37"/>
        <source>%n hosts</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../src/config/checkconfig.cpp" line="40"/>
        <source>%n engine</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../src/config/checkconfig.cpp" line="41"/>
        <source>%n engines</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <location filename="../src/config/checkconfig.cpp" line="42"/>
        <source>%1: ok (%2, %3)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>CommandLine</name>
    <message>
        <location filename="../src/app/commandline.cpp" line="11"/>
        <source>Usage: switchyard [options]
       switchyard check-config FILE

One endpoint on the LAN in front of several llama.cpp GPU boxes.

Options:
  --config FILE           read hosts and settings from FILE (JSON, see docs/CONFIG.md)
  --listen HOST:PORT      address to serve on (default 127.0.0.1:18766)
  --upstream NAME=URL     a static host, without a config file (repeatable)
  --demo                  start two simulated hosts and relay in front of them
  --headless              no window (also the default when there is no display)
  --tray                  start with only a tray icon
  --data-dir DIR          where the history store lives
  --version               print the version
  -h, --help              this text

Commands:
  check-config FILE       validate a config file; says what is wrong and where, exits 1 if anything is
</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ConfigError</name>
    <message>
        <location filename="../src/config/config.cpp" line="22"/>
        <source>line %1, column %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../src/config/config.cpp" line="23"/>
        <source>line %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ConfigLoader</name>
    <message>
        <location filename="../src/config/configloader.cpp" line="123"/>
        <source>expected an object, got %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../src/config/configloader.cpp" line="128"/>
        <source>host fields go inside &quot;hosts&quot;: {&quot;NAME&quot;: {...}}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../src/config/configloader.cpp" line="144"/>
        <location filename="../src/config/configloader.cpp" line="463"/>
        <source>must not be empty</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../src/config/configloader.cpp" line="149"/>
        <source>not a valid URL: &quot;%1&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../src/config/configloader.cpp" line="153"/>
        <source>expected an http:// or https:// URL, got &quot;%1&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../src/config/configloader.cpp" line="157"/>
        <source>the URL has no host: &quot;%1&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../src/config/configloader.cpp" line="161"/>
        <source>the URL must not have a query or fragment: &quot;%1&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../src/config/configloader.cpp" line="176"/>
        <source>null</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../src/config/configloader.cpp" line="177"/>
        <source>true or false</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../src/config/configloader.cpp" line="178"/>
        <source>a number</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../src/config/configloader.cpp" line="179"/>
        <source>a string</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../src/config/configloader.cpp" line="180"/>
        <source>an array</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../src/config/configloader.cpp" line="181"/>
        <source>an object</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../src/config/configloader.cpp" line="195"/>
        <source>expected %1, got %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../src/config/configloader.cpp" line="208"/>
        <source>duplicate key (first on line %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../src/config/configloader.cpp" line="227"/>
        <source>unknown field (did you mean &quot;%1&quot;?)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../src/config/configloader.cpp" line="229"/>
        <source>unknown field here (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../src/config/configloader.cpp" line="231"/>
        <source>unknown field (known fields: %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../src/config/configloader.cpp" line="243"/>
        <source>required field missing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../src/config/configloader.cpp" line="286"/>
        <location filename="../src/config/configloader.cpp" line="574"/>
        <source>must be greater than 0</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../src/config/configloader.cpp" line="290"/>
        <source>must be at most %1 (a day)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../src/config/configloader.cpp" line="295"/>
        <source>must be at least 0.001</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../src/config/configloader.cpp" line="318"/>
        <location filename="../src/config/configloader.cpp" line="672"/>
        <source>invalid host name &quot;%1&quot;: use only letters, digits, &apos;.&apos; and &apos;_&apos; (no &apos;-&apos;: clients name models &quot;&lt;host&gt;-&lt;model&gt;&quot;)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../src/config/configloader.cpp" line="324"/>
        <source>no hosts configured; add at least one</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../src/config/configloader.cpp" line="334"/>
        <source>engine fields go inside &quot;engines&quot;: {&quot;NAME&quot;: {...}}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../src/config/configloader.cpp" line="347"/>
        <source>unknown driver &quot;%1&quot; (expected static, local, agent or command)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../src/config/configloader.cpp" line="348"/>
        <source>unknown driver &quot;%1&quot; (did you mean &quot;%2&quot;?)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../src/config/configloader.cpp" line="362"/>
        <source>only used with driver &quot;agent&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../src/config/configloader.cpp" line="380"/>
        <source>invalid engine name &quot;%1&quot;: use only letters, digits, &apos;.&apos;, &apos;_&apos; and &apos;-&apos;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../src/config/configloader.cpp" line="395"/>
        <source>model &quot;%1&quot; is also listed by engine %2, which comes first and serves it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../src/config/configloader.cpp" line="403"/>
        <source>no engines configured; a host needs at least one</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../src/config/configloader.cpp" line="431"/>
        <source>model keys must not be empty or start or end with spaces</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../src/config/configloader.cpp" line="433"/>
        <source>model &quot;%1&quot; is listed twice</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../src/config/configloader.cpp" line="447"/>
        <source>must not be empty: give the program and its arguments</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../src/config/configloader.cpp" line="449"/>
        <source>the program must not be empty</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../src/config/configloader.cpp" line="455"/>
        <source>only used with drivers &quot;local&quot; and &quot;agent&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../src/config/configloader.cpp" line="470"/>
        <source>only used with driver &quot;command&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../src/config/configloader.cpp" line="497"/>
        <source>a pattern must not be empty or contain spaces or control characters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../src/config/configloader.cpp" line="504"/>
        <source>the target must be one model alias, not a pattern: &quot;%1&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../src/config/configloader.cpp" line="512"/>
        <source>target &quot;%1&quot; is not a model of a configured host (expected &quot;&lt;host&gt;-&lt;model&gt;&quot;, e.g. &quot;%2&quot;)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../src/config/configloader.cpp" line="526"/>
        <source>no engine of host %1 lists model &quot;%2&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../src/config/configloader.cpp" line="558"/>
        <source>clients on Node&apos;s fetch give up after %1 s without a response; keep this below that</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../src/config/configloader.cpp" line="576"/>
        <source>must be at most %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../src/config/configloader.cpp" line="615"/>
        <source>the file is empty</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../src/config/configloader.cpp" line="624"/>
        <source>JSON syntax error: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../src/config/configloader.cpp" line="639"/>
        <source>cannot read the config file: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../src/config/configloader.cpp" line="658"/>
        <source>no upstreams; give at least one --upstream NAME=URL</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../src/config/configloader.cpp" line="663"/>
        <source>expected NAME=URL, got &quot;%1&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../src/config/configloader.cpp" line="676"/>
        <source>host &quot;%1&quot; is given twice</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../src/config/configloader.cpp" line="682"/>
        <source>%1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../src/config/configloader.cpp" line="703"/>
        <source>expected HOST:PORT, e.g. &quot;127.0.0.1:18766&quot;, &quot;0.0.0.0:18766&quot; or &quot;[::1]:18766&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../src/config/configloader.cpp" line="720"/>
        <source>an IPv6 address needs brackets, e.g. &quot;[::1]:18766&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../src/config/configloader.cpp" line="727"/>
        <source>invalid port &quot;%1&quot; (expected a number from 0 to 65535)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../src/config/configloader.cpp" line="735"/>
        <source>&quot;%1&quot; is not an IP address (host names are not looked up; use 0.0.0.0 for all interfaces)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../src/config/configloader.cpp" line="739"/>
        <source>brackets are for IPv6 addresses: &quot;%1&quot;</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>DemoFleet</name>
    <message>
        <location filename="../ui/demofleet.cpp" line="41"/>
        <source>simulated host %1 cannot listen on loopback</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>HistorySchema</name>
    <message>
        <location filename="../src/store/historyschema.cpp" line="90"/>
        <source>The history database has schema version %1; this version of Switchyard knows up to %2.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <location filename="../ui/main.cpp" line="47"/>
        <source>switchyard: cannot start the demo fleet: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main.cpp" line="80"/>
        <source>switchyard: cannot create the data folder %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main.cpp" line="86"/>
        <source>switchyard: cannot open the history store: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main.cpp" line="98"/>
        <source>switchyard %1 listening on %2 (%3 hosts)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main.cpp" line="102"/>
        <source>demo fleet: point clients at %1/v1 (models: curl %1/v1/models)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main.cpp" line="108"/>
        <source>Switchyard is relaying on %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../ui/main.cpp" line="110"/>
        <source>Switchyard</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>switchyard::CommandLine</name>
    <message>
        <location filename="../src/app/commandline.cpp" line="40"/>
        <source>%1 needs a value</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../src/app/commandline.cpp" line="67"/>
        <source>unknown argument: %1 (see --help)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../src/app/commandline.cpp" line="73"/>
        <source>--demo brings its own hosts; leave out --config and --upstream</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../src/app/commandline.cpp" line="75"/>
        <source>use either --config or --upstream, not both</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>switchyard::HistoryWriter</name>
    <message>
        <location filename="../src/store/historywriter.cpp" line="127"/>
        <source>Cannot create the folder %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../src/store/historywriter.cpp" line="144"/>
        <source>Cannot switch the history database to WAL mode: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <location filename="../src/store/historywriter.cpp" line="201"/>
        <source>The history database is not open; %n row(s) not stored.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../src/store/historywriter.cpp" line="262"/>
        <source>%n row(s) not stored in the history: %1</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
</context>
<context>
    <name>switchyard::RelayService</name>
    <message>
        <location filename="../src/app/relayservice.cpp" line="42"/>
        <source>cannot listen on %1:%2: %3</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>switchyard::RequestLogModel</name>
    <message>
        <location filename="../src/store/requestlogmodel.cpp" line="209"/>
        <source>Time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../src/store/requestlogmodel.cpp" line="210"/>
        <source>Method</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../src/store/requestlogmodel.cpp" line="211"/>
        <source>Path</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../src/store/requestlogmodel.cpp" line="212"/>
        <source>Alias</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../src/store/requestlogmodel.cpp" line="213"/>
        <source>Host</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../src/store/requestlogmodel.cpp" line="214"/>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../src/store/requestlogmodel.cpp" line="215"/>
        <source>Duration</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../src/store/requestlogmodel.cpp" line="216"/>
        <source>First byte</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../src/store/requestlogmodel.cpp" line="217"/>
        <source>Tokens/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../src/store/requestlogmodel.cpp" line="218"/>
        <source>Client</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>switchyard::TimelineModel</name>
    <message>
        <location filename="../src/store/timelinemodel.cpp" line="145"/>
        <source>switching</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../src/store/timelinemodel.cpp" line="146"/>
        <source>engine up</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../src/store/timelinemodel.cpp" line="147"/>
        <source>switch failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../src/store/timelinemodel.cpp" line="148"/>
        <source>model loaded</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../src/store/timelinemodel.cpp" line="149"/>
        <source>model unloaded</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../src/store/timelinemodel.cpp" line="150"/>
        <source>lease taken</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../src/store/timelinemodel.cpp" line="151"/>
        <source>lease released</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../src/store/timelinemodel.cpp" line="152"/>
        <source>host up</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../src/store/timelinemodel.cpp" line="153"/>
        <source>host down</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../src/store/timelinemodel.cpp" line="229"/>
        <source>Time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../src/store/timelinemodel.cpp" line="230"/>
        <source>Host</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../src/store/timelinemodel.cpp" line="231"/>
        <source>Event</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../src/store/timelinemodel.cpp" line="232"/>
        <source>Engine</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../src/store/timelinemodel.cpp" line="233"/>
        <source>Model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../src/store/timelinemodel.cpp" line="234"/>
        <source>Duration</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../src/store/timelinemodel.cpp" line="235"/>
        <source>Detail</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
