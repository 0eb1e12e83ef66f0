# `cmake --install` into a temporary prefix, then the tree an operator's desktop relies on is checked:
# the binary runs, the launcher entry is valid and names the icon and the binary, translations are there.
# Arguments: -D BUILD_DIR=... -D PREFIX=...
file(REMOVE_RECURSE "${PREFIX}")
execute_process(COMMAND ${CMAKE_COMMAND} --install "${BUILD_DIR}" --prefix "${PREFIX}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "cmake --install failed (${rc}): ${err}")
endif()
foreach(expected
        bin/berth
        share/applications/berth.desktop
        share/icons/hicolor/scalable/apps/berth.svg
        share/berth/translations/berth_de.qm)
    if(NOT EXISTS "${PREFIX}/${expected}")
        message(FATAL_ERROR "missing from the install tree: ${expected}\n${out}")
    endif()
endforeach()
file(READ "${PREFIX}/share/applications/berth.desktop" desktop)
foreach(line "Exec=berth" "Icon=berth" "Type=Application")
    string(FIND "${desktop}" "${line}" at)
    if(at EQUAL -1)
        message(FATAL_ERROR "berth.desktop lacks ${line}")
    endif()
endforeach()
find_program(VALIDATE desktop-file-validate)
if(VALIDATE)
    execute_process(COMMAND ${VALIDATE} "${PREFIX}/share/applications/berth.desktop" RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_VARIABLE err2)
    if(NOT rc EQUAL 0)
        message(FATAL_ERROR "desktop-file-validate: ${err}${err2}")
    endif()
endif()
execute_process(COMMAND "${PREFIX}/bin/berth" --help RESULT_VARIABLE rc OUTPUT_VARIABLE help)
if(NOT rc EQUAL 0 OR NOT help MATCHES "Subcommands")
    message(FATAL_ERROR "the installed berth does not run: ${rc} ${help}")
endif()
message(STATUS "install tree complete in ${PREFIX}")
