# cmake -DCHECK=<CheckLayers.cmake> -DROOT=<fixture> [-DMODE=<mode>] [-DDOC=<table>]
#       -DEXPECT=<text;...> [-DALLOWED=<file>] -P expect_failure.cmake
# Runs the layer check on a fixture tree and passes only if it fails saying every EXPECT text
# and never naming ALLOWED, the fixture's file whose includes are all right.
if(NOT MODE)
    set(MODE includes)
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -DROOT=${ROOT} -DDOC=${DOC} -DMODE=${MODE} -P ${CHECK}
                RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE out)
message("${out}")
if(result EQUAL 0)
    message(FATAL_ERROR "the layer check (${MODE}) passed a tree it should refuse")
endif()
foreach(text IN LISTS EXPECT)
    string(FIND "${out}" "${text}" at)
    if(at EQUAL -1)
        message(FATAL_ERROR "the layer check (${MODE}) did not say: ${text}")
    endif()
endforeach()
if(ALLOWED)
    string(FIND "${out}" "${ALLOWED}" at)
else()
    set(at -1)
endif()
if(NOT at EQUAL -1)
    message(FATAL_ERROR "the layer check (${MODE}) refused an allowed include (${ALLOWED})")
endif()
