#include "json_to_python.h"

namespace layoutcheck::python {

namespace py = pybind11;

py::object to_python(const Json& json) {
  switch (json.kind()) {
    case Json::Kind::null:
      return py::none();
    case Json::Kind::boolean:
      return py::bool_(json.as_bool());
    case Json::Kind::integer:
      return py::int_(json.as_int());
    case Json::Kind::number:
      return py::float_(json.as_double());
    case Json::Kind::string:
      return py::str(json.as_string());
    case Json::Kind::array: {
      py::list list;
      for (const Json& item : json.items()) list.append(to_python(item));
      return list;
    }
    case Json::Kind::object: {
      py::dict dict;
      for (const auto& [key, value] : json.members()) dict[py::str(key)] = to_python(value);
      return dict;
    }
  }
  return py::none();
}

}  // namespace layoutcheck::python
