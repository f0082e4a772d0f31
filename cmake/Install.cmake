# cmake --install build --prefix P: libblk and its package config, every
# header (the generated .inc ones too), softmax-run and softmax-opt.
include(CMakePackageConfigHelpers)
set(BLK_PACKAGE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/Blk)

install(TARGETS Blk EXPORT BlkTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(EXPORT BlkTargets NAMESPACE Blk:: DESTINATION ${BLK_PACKAGE_DIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/BlkConfig.cmake.in
  ${PROJECT_BINARY_DIR}/BlkConfig.cmake
  INSTALL_DESTINATION ${BLK_PACKAGE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/BlkConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/BlkConfig.cmake
  ${PROJECT_BINARY_DIR}/BlkConfigVersion.cmake DESTINATION ${BLK_PACKAGE_DIR})

# Headers, and the .def lists they expand (CompileOptions.def).
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/blk
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.h"
  PATTERN "*.def")
install(DIRECTORY ${PROJECT_BINARY_DIR}/include/blk
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.inc")

set_target_properties(softmax-run softmax-opt PROPERTIES
  INSTALL_RPATH "${LLVM_LIBRARY_DIR}")
install(TARGETS softmax-run softmax-opt
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
