# The web page's build under Debian's emscripten (scripts/web runs it; docs/web.md). Included by
# the top CMakeLists.txt when the compiler is em++, in place of its find_package calls.

# No LuaJIT (no WebAssembly build of it), no suite, no benchmarks: the page and its module only.
set(ODDS_SCRIPTS OFF CACHE BOOL "" FORCE)
set(ODDS_TESTS OFF CACHE BOOL "" FORCE)
set(ODDS_BENCHMARKS OFF CACHE BOOL "" FORCE)

# Debian's header-only libraries (Boost, Eigen, toml++) live in /usr/include beside glibc's
# headers, which must not reach em++: a folder of links to those three alone.
set(ODDS_WEB_INCLUDE ${PROJECT_BINARY_DIR}/web-include)
file(MAKE_DIRECTORY ${ODDS_WEB_INCLUDE})
foreach(dir boost eigen3/Eigen toml++)
  get_filename_component(name ${dir} NAME)
  if(NOT EXISTS /usr/include/${dir})
    message(FATAL_ERROR "/usr/include/${dir} is missing: scripts/setup installs Debian's headers")
  endif()
  file(CREATE_LINK /usr/include/${dir} ${ODDS_WEB_INCLUDE}/${name} SYMBOLIC)
endforeach()
add_library(odds_web_headers INTERFACE)
target_include_directories(odds_web_headers SYSTEM INTERFACE ${ODDS_WEB_INCLUDE})
# The targets the native build finds, here the headers alone. Boost.Program_options's compiled
# half has no WebAssembly build: the page parses no command line (sim/web/door.hpp), and the
# option declarations the commands keep for the CLI are never called (sim/web/no_options.cpp).
add_library(Boost::headers ALIAS odds_web_headers)
add_library(Boost::program_options ALIAS odds_web_headers)
add_library(Eigen3::Eigen ALIAS odds_web_headers)
add_library(Threads::Threads INTERFACE IMPORTED)

# wasm32's size_t is 32 bits: clang's -Wconversion then names every 64-bit count that indexes a
# vector. Each is bounded far below 2^32 before anything is allocated (a chunk's playouts; skill's
# and restrict's 20 million outcomes, kMaxOutcomes), so the web build does not warn of them.
function(odds_web_warnings)
  target_compile_options(odds_warnings INTERFACE -Wno-shorten-64-to-32)
endfunction()

# WebAssembly's own exceptions (Chromium and Node have them): a bad input's UsageError becomes
# its one line, as on the command line, at no cost where nothing throws.
add_compile_options(-fwasm-exceptions -msimd128)
add_link_options(-fwasm-exceptions -msimd128)

function(odds_web_page)
  set(page ${PROJECT_BINARY_DIR}/page)
  add_executable(odds_web sim/games.cpp sim/web/no_options.cpp)
  target_include_directories(odds_web PRIVATE ${PROJECT_BINARY_DIR}/games/odds)
  target_link_libraries(odds_web PRIVATE odds_sim odds_warnings)
  set_target_properties(odds_web PROPERTIES OUTPUT_NAME odds RUNTIME_OUTPUT_DIRECTORY ${page})
  target_link_options(odds_web PRIVATE
    -O3 --no-entry -sMODULARIZE=1 -sEXPORT_NAME=OddsModule -sENVIRONMENT=web,worker,node
    -sALLOW_MEMORY_GROWTH=1 -sEXPORTED_FUNCTIONS=_odds_call
    -sEXPORTED_RUNTIME_METHODS=ccall,FS)
  # The page's own files beside the module, copied whenever they change: the folder is the page.
  set(files "")
  foreach(f index.html app.js worker.js style.css sw.js)
    add_custom_command(OUTPUT ${page}/${f}
      COMMAND ${CMAKE_COMMAND} -E copy ${PROJECT_SOURCE_DIR}/sim/web/${f} ${page}/${f}
      DEPENDS ${PROJECT_SOURCE_DIR}/sim/web/${f})
    list(APPEND files ${page}/${f})
  endforeach()
  add_custom_target(odds_web_files DEPENDS ${files})
  add_dependencies(odds_web odds_web_files)
endfunction()
