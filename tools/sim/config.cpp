// SPDX-License-Identifier: GPL-2.0-only
#include "config.hpp"

#include <cctype>
#include <cmath>
#include <fstream>
#include <sstream>

namespace mrcsim {

namespace {

std::string trim(const std::string &s)
{
	std::size_t b = s.find_first_not_of(" \t\r\n");
	if (b == std::string::npos)
		return {};
	std::size_t e = s.find_last_not_of(" \t\r\n");
	return s.substr(b, e - b + 1);
}

std::string lower(std::string s)
{
	for (auto &c : s)
		c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
	return s;
}

// Splits "12.5us" into 12.5 and "us".
double number_and_unit(const std::string &v, std::string &unit)
{
	std::size_t pos = 0;
	double x;
	try {
		x = std::stod(v, &pos);
	} catch (const std::exception &) {
		throw ConfigError("not a number: '" + v + "'");
	}
	unit = lower(trim(v.substr(pos)));
	if (!std::isfinite(x) || x < 0)
		throw ConfigError("bad value: '" + v + "'");
	return x;
}

} // namespace

void Config::parse_text(const std::string &text, const std::string &origin)
{
	std::istringstream in(text);
	std::string line;
	int lineno = 0;
	while (std::getline(in, line)) {
		++lineno;
		if (auto h = line.find('#'); h != std::string::npos)
			line.resize(h);
		line = trim(line);
		if (line.empty())
			continue;
		auto eq = line.find('=');
		if (eq == std::string::npos)
			throw ConfigError(origin + ":" + std::to_string(lineno) +
					  ": expected 'key = value'");
		std::string k = trim(line.substr(0, eq));
		std::string v = trim(line.substr(eq + 1));
		if (k.empty())
			throw ConfigError(origin + ":" + std::to_string(lineno) +
					  ": empty key");
		kv_[k].push_back(v);
	}
}

void Config::load_file(const std::string &path)
{
	std::ifstream f(path);
	if (!f)
		throw ConfigError("cannot open scenario '" + path + "'");
	std::stringstream ss;
	ss << f.rdbuf();
	parse_text(ss.str(), path);
}

void Config::set(const std::string &assignment)
{
	auto eq = assignment.find('=');
	if (eq == std::string::npos)
		throw ConfigError("--set expects key=value, got '" +
				  assignment + "'");
	set(trim(assignment.substr(0, eq)), trim(assignment.substr(eq + 1)));
}

void Config::set(const std::string &key, const std::string &value)
{
	kv_[key] = {value};
}

const std::string *Config::get(const std::string &key) const
{
	auto it = kv_.find(key);
	if (it == kv_.end() || it->second.empty())
		return nullptr;
	used_.insert(key);
	return &it->second.back();
}

std::string Config::str(const std::string &key, const std::string &def) const
{
	const std::string *v = get(key);
	return v ? *v : def;
}

std::int64_t Config::integer(const std::string &key, std::int64_t def) const
{
	const std::string *v = get(key);
	if (!v)
		return def;
	try {
		std::size_t pos;
		long long x = std::stoll(*v, &pos);
		if (pos != v->size())
			throw ConfigError("");
		return x;
	} catch (const std::exception &) {
		throw ConfigError(key + ": not an integer: '" + *v + "'");
	}
}

double Config::real(const std::string &key, double def) const
{
	const std::string *v = get(key);
	if (!v)
		return def;
	std::string unit;
	double x = number_and_unit(*v, unit);
	if (unit == "%")
		return x / 100.0;
	if (!unit.empty())
		throw ConfigError(key + ": unexpected unit in '" + *v + "'");
	return x;
}

bool Config::boolean(const std::string &key, bool def) const
{
	const std::string *v = get(key);
	if (!v)
		return def;
	std::string s = lower(*v);
	if (s == "1" || s == "yes" || s == "true" || s == "on")
		return true;
	if (s == "0" || s == "no" || s == "false" || s == "off")
		return false;
	throw ConfigError(key + ": not a boolean: '" + *v + "'");
}

Time Config::parse_time(const std::string &v)
{
	std::string unit;
	double x = number_and_unit(v, unit);
	double scale;
	if (unit == "ps")
		scale = 1;
	else if (unit == "ns" || unit.empty())
		scale = kNs;
	else if (unit == "us")
		scale = kUs;
	else if (unit == "ms")
		scale = kMs;
	else if (unit == "s")
		scale = 1000.0 * kMs;
	else
		throw ConfigError("bad time unit in '" + v + "'");
	return static_cast<Time>(std::llround(x * scale));
}

std::uint64_t Config::parse_bytes(const std::string &v)
{
	std::string unit;
	double x = number_and_unit(v, unit);
	double scale;
	if (unit.empty() || unit == "b")
		scale = 1;
	else if (unit == "k" || unit == "kb" || unit == "kib")
		scale = 1024;
	else if (unit == "m" || unit == "mb" || unit == "mib")
		scale = 1024.0 * 1024;
	else if (unit == "g" || unit == "gb" || unit == "gib")
		scale = 1024.0 * 1024 * 1024;
	else
		throw ConfigError("bad size unit in '" + v + "'");
	return static_cast<std::uint64_t>(std::llround(x * scale));
}

double Config::parse_rate(const std::string &v)
{
	std::string unit;
	double x = number_and_unit(v, unit);
	if (unit.empty() || unit == "g" || unit == "gbps" || unit == "gb/s")
		return x;
	if (unit == "t" || unit == "tbps")
		return x * 1000;
	if (unit == "m" || unit == "mbps")
		return x / 1000;
	throw ConfigError("bad rate unit in '" + v + "'");
}

// The value of @key through @parse, or @def if it is not set; a bad value
// is an error that names the key.
template <class T>
T Config::parsed(const std::string &key, T def,
		 T (*parse)(const std::string &)) const
{
	const std::string *v = get(key);
	try {
		return v ? parse(*v) : def;
	} catch (const ConfigError &e) {
		throw ConfigError(key + ": " + e.what());
	}
}

Time Config::time(const std::string &key, Time def) const
{
	return parsed(key, def, parse_time);
}

std::uint64_t Config::bytes(const std::string &key, std::uint64_t def) const
{
	return parsed(key, def, parse_bytes);
}

double Config::rate(const std::string &key, double def) const
{
	return parsed(key, def, parse_rate);
}

std::vector<std::string> Config::all(const std::string &key) const
{
	auto it = kv_.find(key);
	if (it == kv_.end())
		return {};
	used_.insert(key);
	return it->second;
}

std::vector<std::string> Config::unused() const
{
	std::vector<std::string> out;
	for (const auto &[k, v] : kv_)
		if (!used_.count(k))
			out.push_back(k);
	return out;
}

std::map<std::string, std::string> parse_params(const std::string &s,
						std::string *head)
{
	std::map<std::string, std::string> out;
	std::istringstream in(s);
	std::string tok;
	bool first = true;
	while (in >> tok) {
		auto eq = tok.find('=');
		if (eq == std::string::npos) {
			if (first && head) {
				*head = tok;
				first = false;
				continue;
			}
			throw ConfigError("expected name=value, got '" + tok +
					  "' in '" + s + "'");
		}
		first = false;
		out[tok.substr(0, eq)] = tok.substr(eq + 1);
	}
	return out;
}

} // namespace mrcsim
