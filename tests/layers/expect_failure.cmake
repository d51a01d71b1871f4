# cmake -DCHECK=<CheckLayers.cmake> -DROOT=<fixture> -DDOC=<table> [-DMODE=<mode>] -DEXPECT=<text;...>
#       -P expect_failure.cmake
# Runs the layer check on a fixture tree and passes only if it fails saying every EXPECT text.
execute_process(COMMAND ${CMAKE_COMMAND} -DROOT=${ROOT} -DDOC=${DOC} -DMODE=${MODE} -P ${CHECK}
                RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE out)
message("${out}")
if(result EQUAL 0)
    message(FATAL_ERROR "the layer check passed a tree it should refuse")
endif()
foreach(text IN LISTS EXPECT)
    string(FIND "${out}" "${text}" at)
    if(at EQUAL -1)
        message(FATAL_ERROR "the layer check did not say: ${text}")
    endif()
endforeach()
string(FIND "${out}" "downward.h" at)
if(NOT at EQUAL -1)
    message(FATAL_ERROR "the layer check refused an allowed include (src/relay/downward.h)")
endif()
