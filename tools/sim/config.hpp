// SPDX-License-Identifier: GPL-2.0-only
// Scenario files: `key = value` lines, `#` comments, repeatable keys
// (e.g. several `failure = ...`), overridden from the command line with
// `--set key=value`.  Values carry units (100G, 1us, 4KB, 2MB, 1bdp).
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "common.hpp"

namespace mrcsim {

struct ConfigError : std::runtime_error {
	using std::runtime_error::runtime_error;
};

class Config {
public:
	void parse_text(const std::string &text, const std::string &origin);
	void load_file(const std::string &path);
	// "key=value": replaces every earlier value of key.
	void set(const std::string &assignment);
	void set(const std::string &key, const std::string &value);

	bool has(const std::string &key) const { return kv_.count(key) != 0; }
	std::string str(const std::string &key, const std::string &def) const;
	std::int64_t integer(const std::string &key, std::int64_t def) const;
	double real(const std::string &key, double def) const;
	bool boolean(const std::string &key, bool def) const;
	Time time(const std::string &key, Time def) const;
	std::uint64_t bytes(const std::string &key, std::uint64_t def) const;
	// Gb/s
	double rate(const std::string &key, double def) const;
	std::vector<std::string> all(const std::string &key) const;

	// Keys present but never read: almost always a typo in a scenario.
	std::vector<std::string> unused() const;

	// Unit parsers, public for the failure/traffic specs and the tests.
	static Time parse_time(const std::string &v);
	static std::uint64_t parse_bytes(const std::string &v);
	static double parse_rate(const std::string &v);

private:
	const std::string *get(const std::string &key) const;
	template <class T>
	T parsed(const std::string &key, T def,
		 T (*parse)(const std::string &)) const;
	std::map<std::string, std::vector<std::string>> kv_;
	mutable std::set<std::string> used_;
};

// "name=value name=value ..." parameter lists inside one value.
std::map<std::string, std::string> parse_params(const std::string &s,
						std::string *head);

} // namespace mrcsim
