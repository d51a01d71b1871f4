<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US">
<context>
    <name>CheckConfig</name>
    <message numerus="yes">
        <location filename="../src/config/checkconfig.cpp" line="+32"/>
        <source>%n engine</source>
        <translation>
            <numerusform>%n engine</numerusform>
            <numerusform>%n engines</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>%n engines</source>
        <translation>
            <numerusform>%n engine</numerusform>
            <numerusform>%n engines</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+32"/>
        <source>%n host</source>
        <translation>
            <numerusform>%n host</numerusform>
            <numerusform>%n hosts</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>%n hosts</source>
        <translation>
            <numerusform>%n host</numerusform>
            <numerusform>%n hosts</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>HostSummary</name>
    <message numerus="yes">
        <location filename="../ui/models/hostsummary.cpp" line="+33"/>
        <source>%n up</source>
        <translation>
            <numerusform>%n up</numerusform>
            <numerusform>%n up</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n asleep</source>
        <translation>
            <numerusform>%n asleep</numerusform>
            <numerusform>%n asleep</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n waking</source>
        <translation>
            <numerusform>%n waking</numerusform>
            <numerusform>%n waking</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <location line="+12"/>
        <location line="+10"/>
        <source>%n leased</source>
        <translation>
            <numerusform>%n leased</numerusform>
            <numerusform>%n leased</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="-20"/>
        <source>%n down</source>
        <translation>
            <numerusform>%n down</numerusform>
            <numerusform>%n down</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+8"/>
        <source>%1 of %n host(s) up</source>
        <translation>
            <numerusform>%1 of %n host up</numerusform>
            <numerusform>%1 of %n hosts up</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+10"/>
        <source>%1 of %n up</source>
        <translation>
            <numerusform>%1 of %n up</numerusform>
            <numerusform>%1 of %n up</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>TimelineText</name>
    <message numerus="yes">
        <location filename="../ui/timeline/timelinetext.cpp" line="+123"/>
        <source>%n request(s) active</source>
        <translation>
            <numerusform>%n request active</numerusform>
            <numerusform>%n requests active</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n failed</source>
        <translation>
            <numerusform>%n failed</numerusform>
            <numerusform>%n failed</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>export</name>
    <message numerus="yes">
        <source>wrote %1 (provider &quot;%2&quot;, %n model(s))</source>
        <translation type="vanished">
            <numerusform>wrote %1 (provider &quot;%2&quot;, %n model)</numerusform>
            <numerusform>wrote %1 (provider &quot;%2&quot;, %n models)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>main</name>
    <message numerus="yes">
        <location filename="../src/app/relayrun.cpp" line="+134"/>
        <source>switchyard %1 listening on %2 (%n host(s))</source>
        <translation>
            <numerusform>switchyard %1 listening on %2 (%n host)</numerusform>
            <numerusform>switchyard %1 listening on %2 (%n hosts)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>switchyard::AddHostDialog</name>
    <message numerus="yes">
        <location filename="../ui/dialogs/addhostdialog.cpp" line="+197"/>
        <source>A llama.cpp router with %n model(s).</source>
        <translation>
            <numerusform>A llama.cpp router with %n model.</numerusform>
            <numerusform>A llama.cpp router with %n models.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+81"/>
        <source>keeps its %n comment(s) and every other field</source>
        <translation>
            <numerusform>keeps its %n comment and every other field</numerusform>
            <numerusform>keeps its %n comments and every other field</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>switchyard::HistoryWriter</name>
    <message numerus="yes">
        <location filename="../src/store/historywriter.cpp" line="+256"/>
        <source>The history database is not open; %n row(s) not stored.</source>
        <translation>
            <numerusform>The history database is not open; %n row not stored.</numerusform>
            <numerusform>The history database is not open; %n rows not stored.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+86"/>
        <source>%n row(s) not stored in the history: %1</source>
        <translation>
            <numerusform>%n row not stored in the history: %1</numerusform>
            <numerusform>%n rows not stored in the history: %1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>switchyard::HostCardDelegate</name>
    <message numerus="yes">
        <location filename="../ui/window/hostcarddelegate.cpp" line="+110"/>
        <source>engine %1 · switch to %2 in %3 (%n waiting)</source>
        <translation>
            <numerusform>engine %1 · switch to %2 in %3 (%n waiting)</numerusform>
            <numerusform>engine %1 · switch to %2 in %3 (%n waiting)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>engine %1 · switch to %2 after the running requests (%n waiting)</source>
        <translation>
            <numerusform>engine %1 · switch to %2 after the running requests (%n waiting)</numerusform>
            <numerusform>engine %1 · switch to %2 after the running requests (%n waiting)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+25"/>
        <source>%1 of %n model(s) loaded</source>
        <translation>
            <numerusform>%1 of %n model loaded</numerusform>
            <numerusform>%1 of %n models loaded</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+20"/>
        <source>%n in flight</source>
        <translation>
            <numerusform>%n in flight</numerusform>
            <numerusform>%n in flight</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+34"/>
        <source>driver %1 · %n engine(s)</source>
        <translation>
            <numerusform>driver %1 · %n engine</numerusform>
            <numerusform>driver %1 · %n engines</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>switchyard::HostTableModel</name>
    <message numerus="yes">
        <location filename="../ui/models/controlleractivity.cpp" line="+35"/>
        <source>%n waiting since %1</source>
        <translation>
            <numerusform>%n waiting since %1</numerusform>
            <numerusform>%n waiting since %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+35"/>
        <source>%n waiting for %1</source>
        <translation>
            <numerusform>%n waiting for %1</numerusform>
            <numerusform>%n waiting for %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/models/hosttablemodel.cpp" line="+424"/>
        <source>%n waiting for engine %1</source>
        <translation>
            <numerusform>%n waiting for engine %1</numerusform>
            <numerusform>%n waiting for engine %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+37"/>
        <source>prompt caches: %n saved, %1 of %2</source>
        <translation>
            <numerusform>prompt caches: %n saved, %1 of %2</numerusform>
            <numerusform>prompt caches: %n saved, %1 of %2</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>switchyard::HostsEditorDialog</name>
    <message numerus="yes">
        <location filename="../ui/dialogs/hostseditordialog.cpp" line="+293"/>
        <source>and %n more change(s)</source>
        <translation>
            <numerusform>and %n more change</numerusform>
            <numerusform>and %n more changes</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+6"/>
        <source>keeps its %n comment(s)</source>
        <translation>
            <numerusform>keeps its %n comment</numerusform>
            <numerusform>keeps its %n comments</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>switchyard::MainWindow</name>
    <message numerus="yes">
        <source>%1 of %n host(s) up</source>
        <translation type="vanished">
            <numerusform>%1 of %n host up</numerusform>
            <numerusform>%1 of %n hosts up</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n leased</source>
        <translation type="vanished">
            <numerusform>%n leased</numerusform>
            <numerusform>%n leased</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/window/mainwindow.cpp" line="+389"/>
        <source>%n request(s) in flight</source>
        <translation>
            <numerusform>%n request in flight</numerusform>
            <numerusform>%n requests in flight</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 of %n up</source>
        <translation type="vanished">
            <numerusform>%1 of %n up</numerusform>
            <numerusform>%1 of %n up</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+7"/>
        <source>%n in flight</source>
        <translation>
            <numerusform>%n in flight</numerusform>
            <numerusform>%n in flight</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>switchyard::ModelTableModel</name>
    <message numerus="yes">
        <location filename="../ui/models/modeltablemodel.cpp" line="+363"/>
        <source>%n request(s) today, %1 failed</source>
        <translation>
            <numerusform>%n request today, %1 failed</numerusform>
            <numerusform>%n requests today, %1 failed</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>switchyard::RequestLogView</name>
    <message numerus="yes">
        <location filename="../ui/window/requestlogview.cpp" line="+123"/>
        <source>Copied %n journal line(s)</source>
        <translation>
            <numerusform>Copied %n journal line</numerusform>
            <numerusform>Copied %n journal lines</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+132"/>
        <source>%n request(s)</source>
        <translation>
            <numerusform>%n request</numerusform>
            <numerusform>%n requests</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>%1 of %n request(s)</source>
        <translation>
            <numerusform>%1 of %n request</numerusform>
            <numerusform>%1 of %n requests</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>switchyard::SwitchEngineDialog</name>
    <message numerus="yes">
        <location filename="../ui/dialogs/switchenginedialog.cpp" line="+32"/>
        <source>%n model(s): %1</source>
        <translation>
            <numerusform>%n model: %1</numerusform>
            <numerusform>%n models: %1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>switchyard::TrayController</name>
    <message numerus="yes">
        <source>Switchyard — %1
%2 of %n host(s) up, %3 in flight
%4</source>
        <translation type="vanished">
            <numerusform>Switchyard — %1
%2 of %n host up, %3 in flight
%4</numerusform>
            <numerusform>Switchyard — %1
%2 of %n hosts up, %3 in flight
%4</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/tray/traycontroller.cpp" line="+138"/>
        <source>Switchyard — %1
%2, %n in flight
%3</source>
        <translation>
            <numerusform>Switchyard — %1
%2, %n in flight
%3</numerusform>
            <numerusform>Switchyard — %1
%2, %n in flight
%3</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+42"/>
        <source>%n in flight</source>
        <translation>
            <numerusform>%n in flight</numerusform>
            <numerusform>%n in flight</numerusform>
        </translation>
    </message>
</context>
</TS>
