// perfgate_main (perfgate/main.h): the entry of perfgate's binary and of a project's own (find_package):
// the Context made once from the project, then the command line.
#include "cli/child_process.h"
#include "cli/commands.h"
#include "core/sysinfo.h"
#include "perfgate/error.h"
#include "perfgate/main.h"
#include "perfgate/registry.h"

namespace perfgate {

int perfgate_main(int argc, char** argv, const char* project_dir) {
  Project project;
  project.dir = project_dir ? project_dir : ".";
  project.peak_kernels_in_suite = true;
  return perfgate_main(argc, argv, project);
}

int perfgate_main(int argc, char** argv, const Project& project) {
  end_with_parent();
  set_peak_kernels_in_suite(project.peak_kernels_in_suite);
  set_build_identity({project.compiler ? project.compiler : "", project.build_type ? project.build_type : "",
                      project.build_flags ? project.build_flags : ""});
  Context context;
  context.project_dir = project.dir && *project.dir ? project.dir : ".";
  context.installed_thresholds_dir = project.thresholds_dir ? project.thresholds_dir : "";
  if (argc > 0 && argv[0] && *argv[0]) context.program = argv[0];
  return run_command_line(argc, argv, context);
}

}  // namespace perfgate
